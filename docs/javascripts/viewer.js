// The step-through viewer of the worked examples: replays a hand from the frames the site
// generator embeds in each <div class="es-viewer"> (a JSON script; rules_site/viewer.py).
// Frame 0 is the deal; frame k is the table after the k-th step, so the card just played is
// on the table and the tricks and scores shown count it. The cards the player to act may
// play are highlighted; bids are laid out as a schedule. Plain JavaScript, no network,
// works from file://.
(function () {
  "use strict";
  var SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades", NT: "no-trumps", NL: "low no-trumps" };
  var RANKS = { "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
                "9": "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function card(code, colours, marks) {
    var node = el("span", "es-card");
    node.setAttribute("role", "img");
    if (code === "JK") {
      node.className += " es-joker";
      node.textContent = "Jo\u2605";
      node.setAttribute("aria-label", "joker");
    } else {
      var base = code.replace(/\.\d+$/, ""), rank = base.slice(0, -1), suit = base.slice(-1);   // 12C, AS.2
      node.className += " es-" + (colours[suit] || "black");
      node.textContent = (rank === "T" ? "10" : rank) + (SYMBOLS[suit] || suit);
      node.setAttribute("aria-label", (RANKS[rank] || rank) + " of " + (NAMES[suit] || suit));
      var copy = /\.(\d+)$/.exec(code);          // a second pack's copy: AS.2
      if (copy) {
        node.appendChild(el("sup", null, copy[1]));
        node.setAttribute("aria-label", node.getAttribute("aria-label") + " (copy " + copy[1] + ")");
      }
    }
    (marks || []).forEach(function (m) { node.className += " es-" + m; });
    return node;
  }

  function cardOf(token) {
    var parts = (token || "").split(":");
    return parts.length === 2 && /^(play|discard|give)$/.test(parts[0]) ? parts[1] : null;
  }

  function Viewer(root) {
    this.root = root;
    this.data = JSON.parse(root.querySelector("script[type='application/json']").textContent);
    this.position = 0;
    this.build();
    this.show();
  }

  Viewer.prototype.build = function () {
    var self = this, data = this.data, root = this.root;
    var fallback = root.querySelector(".es-viewer-fallback");
    if (fallback) fallback.remove();
    var head = el("p", "es-v-title");
    head.appendChild(el("strong", null, "Step through this hand"));
    this.counter = el("span", "es-v-counter");
    head.appendChild(document.createTextNode(" "));
    head.appendChild(this.counter);
    root.appendChild(head);
    this.status = el("p", "es-v-status");
    root.appendChild(this.status);
    this.tally = el("p", "es-v-tally");
    root.appendChild(this.tally);
    this.onTable = el("p", "es-v-table");
    root.appendChild(this.onTable);
    var table = el("div", "es-scroll");
    var grid = el("table", "es-v-grid");
    var thead = el("thead");
    var hr = el("tr");
    ["Player", "Hand", "On the table"].forEach(function (h) {
      var th = el("th", null, h);
      th.scope = "col";
      hr.appendChild(th);
    });
    thead.appendChild(hr);
    grid.appendChild(thead);
    var body = el("tbody");
    this.rows = {};
    data.order.forEach(function (seat) {
      var tr = el("tr");
      var role = seat === data.dealer ? " \u00b7 dealer" : seat === data.eldest ? " \u00b7 eldest" : "";
      var th = el("th", null, data.seats[seat]);
      if (role) th.appendChild(el("span", "es-role", role));
      th.scope = "row";
      var hand = el("td", "es-v-hand"), played = el("td", "es-v-played");
      tr.appendChild(th);
      tr.appendChild(hand);
      tr.appendChild(played);
      body.appendChild(tr);
      self.rows[seat] = { tr: tr, hand: hand, played: played };
    });
    grid.appendChild(body);
    table.appendChild(grid);
    root.appendChild(table);
    this.choices = el("div", "es-v-choices");
    root.appendChild(this.choices);
    this.text = el("p", "es-v-text");
    this.text.setAttribute("aria-live", "polite");
    root.appendChild(this.text);
    var controls = el("div", "es-v-controls");
    [["\u00ab Start", "start", function () { self.go(0); }],
     ["\u25c0 Back", "back", function () { self.go(self.position - 1); }],
     ["Next \u25b6", "next", function () { self.go(self.position + 1); }],
     ["End \u00bb", "end", function () { self.go(self.data.frames.length - 1); }]].forEach(function (b) {
      var button = el("button", "md-button es-v-" + b[1], b[0]);
      button.type = "button";
      button.addEventListener("click", b[2]);
      controls.appendChild(button);
      self[b[1]] = button;
    });
    root.appendChild(controls);
    root.classList.add("es-viewer-ready");
  };

  Viewer.prototype.go = function (position) {
    this.position = Math.max(0, Math.min(this.data.frames.length - 1, position));
    this.show();
  };

  Viewer.prototype.label = function (token) {
    return (this.data.labels && this.data.labels[token]) || token;
  };

  // The tricks taken and the score, one number per side, each in its own span so that a
  // test (or a reader) can find each side's figure.
  Viewer.prototype.showTally = function (state) {
    var data = this.data, tally = this.tally;
    tally.textContent = "";
    tally.appendChild(el("span", "es-v-label", "Tricks: "));
    data.units.forEach(function (u, i) {
      if (i) tally.appendChild(document.createTextNode(", "));
      tally.appendChild(document.createTextNode(u + " "));
      var n = el("span", "es-v-won", String((state.won || [])[i] || 0));
      n.setAttribute("data-unit", i);
      tally.appendChild(n);
    });
    tally.appendChild(document.createTextNode(" \u00b7 "));
    tally.appendChild(el("span", "es-v-label", "Score: "));
    data.units.forEach(function (u, i) {
      if (i) tally.appendChild(document.createTextNode(", "));
      tally.appendChild(document.createTextNode(u + " "));
      var s = el("span", "es-v-score", String((state.scores || [])[i] === undefined ? "" : state.scores[i]));
      s.setAttribute("data-unit", i);
      tally.appendChild(s);
    });
  };

  Viewer.prototype.showChoices = function (state, step) {
    var self = this, data = this.data, box = this.choices;
    box.textContent = "";
    var tokens = (state.legal || []).filter(function (t) { return !cardOf(t); });
    if (state.done || state.to_act === null || state.to_act === undefined || !tokens.length) return;
    var chosen = step ? step.action : null;
    box.appendChild(el("span", "es-v-label", data.seats[state.to_act] + " may: "));
    var grid = state.grid !== undefined ? data.grids[state.grid] : null;
    var inGrid = {};
    if (grid) grid.cells.forEach(function (row) { row.forEach(function (t) { if (t) inGrid[t] = true; }); });
    var list = el("span", "es-v-options");
    tokens.forEach(function (t) {
      if (inGrid[t]) return;
      list.appendChild(el("span", "es-v-option" + (t === chosen ? " es-v-chosen" : ""), self.label(t)));
    });
    box.appendChild(list);
    if (!grid) return;
    var scroll = el("div", "es-scroll");
    var table = el("table", "es-v-bids");
    var head = el("tr");
    head.appendChild(el("th", null, "Tricks"));
    grid.strain_codes.forEach(function (s) {
      var th = el("th", "es-" + (data.colours[s] || "black"), SYMBOLS[s] || (s === "NT" ? "NT" : s));
      th.setAttribute("aria-label", NAMES[s] || s);
      th.scope = "col";
      head.appendChild(th);
    });
    table.appendChild(head);
    grid.tricks.forEach(function (n, r) {
      var tr = el("tr");
      var th = el("th", null, String(n));
      th.scope = "row";
      tr.appendChild(th);
      grid.cells[r].forEach(function (t, c) {
        var value = grid.values && grid.values[r][c];
        var td = el("td", t ? (t === chosen ? "es-v-chosen" : "es-v-can") : "", t ? (value === null || value === undefined ? "\u2022" : String(value)) : "");
        if (t) td.setAttribute("aria-label", self.label(t));
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    scroll.appendChild(table);
    box.appendChild(scroll);
  };

  Viewer.prototype.show = function () {
    var data = this.data, self = this;
    var frames = data.frames, at = this.position;
    var state = frames[at], next = at + 1 < frames.length ? frames[at + 1] : null;
    this.counter.textContent = at === 0 ? "(the deal; " + (frames.length - 1) + " steps)" :
      "(step " + at + " of " + (frames.length - 1) + (next ? ")" : ", done)");
    var facts = [];
    if (state.trump) facts.push(state.trump === "NT" || state.trump === "NL" ? "played at " + NAMES[state.trump] :
                                "trumps " + (SYMBOLS[state.trump] || "") + " " + (NAMES[state.trump] || state.trump));
    if (state.maker !== null && state.maker !== undefined) facts.push(data.maker_word + " " + data.seats[state.maker]);
    if ((state.out || []).length) facts.push(state.out.map(function (s) { return data.seats[s]; }).join(" and ") + " sitting out");
    this.status.textContent = facts.join(" \u00b7 ") || "before trumps are made";
    this.showTally(state);
    this.onTable.textContent = "";
    (state.table || []).forEach(function (pile, i) {
      if (i) self.onTable.appendChild(document.createTextNode(" \u00b7 "));
      self.onTable.appendChild(el("strong", null, pile.name + (pile.hidden ? " (face down)" : "") + ": "));
      pile.cards.forEach(function (c) { self.onTable.appendChild(card(c, data.colours, pile.hidden ? ["down"] : [])); });
    });
    var chosen = next ? cardOf(next.action) : null;
    var legalCards = {};
    (state.legal || []).forEach(function (token) { var c = cardOf(token); if (c) legalCards[c] = true; });
    data.order.forEach(function (seat) {
      var row = self.rows[seat];
      var out = (state.out || []).indexOf(seat) >= 0;
      row.tr.className = (!state.done && seat === state.to_act ? "es-v-to-act" : "") + (out ? " es-v-out" : "");
      row.hand.textContent = "";
      if (out) row.hand.appendChild(el("span", "es-none", "sits out "));
      ((state.hands || [])[seat] || []).forEach(function (c) {
        var marks = [];
        if (seat === state.to_act && legalCards[c]) marks.push("legal");
        if (next && seat === next.seat && c === chosen) marks.push("next");
        row.hand.appendChild(card(c, data.colours, marks));
      });
      row.played.textContent = "";
      (state.trick || []).forEach(function (pair) {
        if (pair[0] === seat) row.played.appendChild(card(pair[1], data.colours, state.winner === seat ? ["win"] : []));
      });
      if (state.winner === seat && (state.trick || []).length) row.played.appendChild(el("span", "es-v-took", " takes the trick"));
    });
    this.showChoices(state, next);
    this.text.textContent = "";
    this.text.appendChild(el("span", null, state.text));
    if (state.why) {
      this.text.appendChild(el("br"));
      this.text.appendChild(el("em", null, state.why));
    }
    if (state.done) {
      this.text.appendChild(el("br"));
      var points = (state.hand_points || []).map(function (p, i) { return p ? p + " to " + data.units[i] : null; })
        .filter(function (x) { return x; });
      this.text.appendChild(el("strong", "es-v-over", "The hand is over" + (points.length ? ": " + points.join(", ") : "") + "."));
    }
    // A button that can do nothing at this step is disabled; if it held the focus (the last
    // "next" press), the focus moves to the button that can still act, never to the page's body.
    var focused = document.activeElement;
    this.start.disabled = this.back.disabled = at === 0;
    this.next.disabled = this.end.disabled = !next;
    if (focused && focused.disabled && this.root.contains(focused)) {
      var keep = (focused === this.next || focused === this.end) ? this.back : this.next;
      if (keep && !keep.disabled) keep.focus();
    }
  };

  function init() {
    var roots = document.querySelectorAll(".es-viewer:not(.es-viewer-ready)");
    for (var i = 0; i < roots.length; i++) {
      try { new Viewer(roots[i]); } catch (e) { if (window.console) console.error(e); }
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(init);   // material's instant navigation
})();
