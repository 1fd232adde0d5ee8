// The step-through viewer of the worked examples: replays a hand card by card from the data
// the site generator embeds in each <div class="es-viewer"> (a JSON script), with the legal
// set of the player to act highlighted. Plain JavaScript, no network, works from file://.
(function () {
  "use strict";
  var SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
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
      node.className += " es-" + (colours[code[1]] || "black");
      node.textContent = (code[0] === "T" ? "10" : code[0]) + (SYMBOLS[code[1]] || code[1]);
      node.setAttribute("aria-label", (RANKS[code[0]] || code[0]) + " of " + (NAMES[code[1]] || code[1]));
    }
    (marks || []).forEach(function (m) { node.className += " es-" + m; });
    return node;
  }

  function cardOf(token) {
    var parts = token.split(":");
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
    var table = el("div", "es-scroll");
    var grid = el("table", "es-v-grid");
    var thead = el("thead");
    var hr = el("tr");
    ["Player", "Hand", "In the trick"].forEach(function (h) {
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
      var th = el("th", null, data.seats[seat] + (seat === data.dealer ? " \u00b7 dealer" : ""));
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
    this.text = el("p", "es-v-text");
    this.text.setAttribute("aria-live", "polite");
    root.appendChild(this.text);
    var controls = el("div", "es-v-controls");
    [["\u00ab Start", "start", function () { self.go(0); }],
     ["\u25c0 Back", "back", function () { self.go(self.position - 1); }],
     ["Next \u25b6", "next", function () { self.go(self.position + 1); }],
     ["End \u00bb", "end", function () { self.go(self.data.steps.length); }]].forEach(function (b) {
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
    this.position = Math.max(0, Math.min(this.data.steps.length, position));
    this.show();
  };

  Viewer.prototype.show = function () {
    var data = this.data, self = this;
    var steps = data.steps, at = this.position;
    var step = at < steps.length ? steps[at] : null;
    var state = step ? step.before : data.end;
    this.counter.textContent = "(step " + Math.min(at + 1, steps.length) + " of " + steps.length + (step ? ")" : ", done)");
    var facts = [];
    if (state.trump) facts.push(state.trump === "NT" ? "no-trumps" : "trumps " + (NAMES[state.trump] || state.trump));
    if (state.maker !== null && state.maker !== undefined) facts.push("maker " + data.seats[state.maker]);
    if (state.won && data.units.length) {
      facts.push("tricks " + data.units.map(function (u, i) { return u + " " + state.won[i]; }).join(", "));
    }
    this.status.textContent = facts.join(" \u00b7 ") || (data.upcard ? "before trumps are made" : "");
    var chosen = step ? cardOf(step.action) : null;
    var legalCards = {};
    (state.legal || []).forEach(function (token) { var c = cardOf(token); if (c) legalCards[c] = true; });
    data.order.forEach(function (seat) {
      var row = self.rows[seat];
      row.tr.className = (seat === state.to_act ? "es-v-to-act" : "") + ((state.out || []).indexOf(seat) >= 0 ? " es-v-out" : "");
      row.hand.textContent = "";
      var cards = (state.hands || [])[seat] || [];
      if ((state.out || []).indexOf(seat) >= 0) row.hand.appendChild(el("span", "es-none", "sits out"));
      cards.forEach(function (c) {
        var marks = [];
        if (seat === state.to_act && legalCards[c]) marks.push("legal");
        if (step && seat === step.seat && c === chosen) marks.push(step.refused ? "refused" : "next");
        row.hand.appendChild(card(c, data.colours, marks));
      });
      if (seat === state.to_act && state.legal && state.legal.length && !Object.keys(legalCards).length) {
        row.hand.appendChild(el("span", "es-v-legal", " may: " + state.legal.map(function (t) {
          return (data.labels && data.labels[t]) || t;
        }).join(" \u00b7 ")));
      }
      row.played.textContent = "";
      (state.trick || []).forEach(function (pair) {
        if (pair[0] === seat) row.played.appendChild(card(pair[1], data.colours, state.winner === seat ? ["win"] : []));
      });
    });
    this.text.textContent = "";
    if (step) {
      var line = el("span", step.refused ? "es-v-refused" : null,
                    (step.refused ? "Refused: " : "Next: ") + step.text + (step.refused ? " (" + step.refused + ")" : ""));
      this.text.appendChild(line);
      if (step.why) {
        this.text.appendChild(el("br"));
        this.text.appendChild(el("em", null, step.why));
      }
    } else {
      this.text.textContent = "The hand is over. Scores: " + data.units.map(function (u, i) {
        return u + " " + ((data.end.scores || [])[i] === undefined ? "" : data.end.scores[i]);
      }).join(", ") + ".";
    }
    this.start.disabled = this.back.disabled = at === 0;
    this.next.disabled = this.end.disabled = at >= steps.length;
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
