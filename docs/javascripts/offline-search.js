// Search for the site opened from disk (file://), where Material's search cannot start (its
// worker and its index are fetched, which browsers refuse for files, and Material then hides
// the search box). The build writes the same index as a script (search/search_index.js, by
// rules_site/hooks.py, with an entry per rule and per house rule); this loads it with a
// <script> tag (it defines `__index`, the name Material's bundle also reads on file://), keeps
// the search box shown and openable (the header's search icon on a phone), and answers it in
// Material's own result markup.
//
// Ranking: every word of the query must be found (accents ignored: "misere" finds
// "misère"); a word in the title counts ten times one in the text, the whole query in the
// title counts more again, and each entry's weight (`boost`: a rule's own entry up, worked
// examples and case pages down) multiplies the score.
// Served over http(s) it answers too, so that the site ranks alike from disk and served (lunr,
// Material's engine, weighs words otherwise): the box's own events are taken before they reach
// Material's search, which then never shows a result of its own.
// From disk it also gives the keys "/", "s" and "f" their meaning: open the search.
(function () {
  "use strict";
  var served = location.protocol !== "file:";
  var config = {};
  try { config = JSON.parse(document.getElementById("__config").textContent); } catch (e) { /* no config */ }
  var base = new URL((config.base || ".") + "/", location.href);
  var index = null, loading = false, pending = null;
  var MAX = 20;

  function fold(text) {
    return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function load(then) {
    if (index) return then();
    pending = then;
    if (loading) return;
    loading = true;
    var script = document.createElement("script");
    script.src = new URL("search/search_index.js", base).href;
    script.onload = function () {
      var data = window.__index || { docs: [] };
      index = data.docs.map(function (doc) {
        return { doc: doc, title: fold(doc.title), text: fold((doc.text || "").replace(/<[^>]+>/g, " ")),
                 boost: typeof doc.boost === "number" ? doc.boost : 1 };
      });
      if (pending) pending();
    };
    document.head.appendChild(script);
  }

  function terms(query) {
    return fold(query).split(/[^\p{L}\p{N}♠♣♥♦-]+/u).filter(function (t) { return t.length > 0; });
  }

  function search(query) {
    var words = terms(query);
    if (!words.length) return [];
    var phrase = words.join(" ");
    var hits = [];
    index.forEach(function (entry) {
      var score = 0;
      for (var i = 0; i < words.length; i++) {
        var w = words[i];
        var inTitle = entry.title.indexOf(w) >= 0;
        var inText = entry.text.indexOf(w) >= 0;
        if (!inTitle && !inText) return;
        score += (inTitle ? 10 : 0) + (inText ? 1 : 0);
      }
      if (words.length > 1 && entry.title.indexOf(phrase) >= 0) score += 30;
      else if (words.length > 1 && entry.text.indexOf(phrase) >= 0) score += 3;
      if (entry.title === phrase) score += 20;
      hits.push({ entry: entry, score: score * entry.boost });
    });
    hits.sort(function (a, b) { return b.score - a.score; });
    return hits.slice(0, MAX);
  }

  function snippet(entry, words) {
    var html = (entry.doc.text || "").replace(/<span hidden>.*?<\/span>/g, " ");
    var text = new DOMParser().parseFromString(html, "text/html").body.textContent.replace(/\s+/g, " ").trim();
    var at = fold(text).indexOf(words[0]);
    var start = Math.max(0, at - 60);
    return (start ? "…" : "") + text.slice(start, start + 180) + (text.length > start + 180 ? "…" : "");
  }

  function render(query) {
    var list = document.querySelector(".md-search-result__list");
    var meta = document.querySelector(".md-search-result__meta");
    if (!list || !meta) return;
    list.textContent = "";
    var words = terms(query);
    if (!words.length) { meta.textContent = "Type to start searching"; return; }
    var hits = search(query);
    meta.textContent = hits.length ? hits.length + (hits.length === MAX ? "+" : "") + " matching documents" : "No matching documents";
    hits.forEach(function (hit) {
      var item = document.createElement("li");
      item.className = "md-search-result__item";
      item.dataset.es = "1";           // ours: Material's own results (served) are replaced by these
      var link = document.createElement("a");
      link.className = "md-search-result__link";
      link.href = new URL(hit.entry.doc.location, base).href;
      link.addEventListener("click", function () {           // a result on this page: close the search over it
        var toggle = document.getElementById("__search");
        if (toggle && toggle.checked) { toggle.checked = false; toggle.dispatchEvent(new Event("change")); }
      });
      var article = document.createElement("article");
      article.className = "md-search-result__article md-typeset";
      var title = document.createElement("h1");
      // A title is HTML in the index (Material draws it so: "<code>euchre-spec check</code>"): read as text.
      title.textContent = hit.entry.doc.title
        ? new DOMParser().parseFromString(hit.entry.doc.title, "text/html").body.textContent : hit.entry.doc.location;
      article.appendChild(title);
      if (hit.entry.doc.page) {
        var where = document.createElement("p");
        where.className = "es-search-page";
        where.textContent = hit.entry.doc.page;
        article.appendChild(where);
      }
      var text = document.createElement("p");
      text.textContent = snippet(hit.entry, words);
      article.appendChild(text);
      link.appendChild(article);
      item.appendChild(link);
      list.appendChild(item);
    });
  }

  // Material hides the search box when its worker cannot start (always, from disk): show it
  // again, and keep it shown.
  function reveal() {
    var box = document.querySelector(".md-search");
    if (!box) return;
    if (box.hidden) box.hidden = false;
    if (!box.dataset.offlineWatched && window.MutationObserver) {
      box.dataset.offlineWatched = "1";
      new MutationObserver(function () { if (box.hidden) box.hidden = false; })
        .observe(box, { attributes: true, attributeFilter: ["hidden"] });
    }
  }

  function attach() {
    reveal();
    var input = document.querySelector(".md-search__input");
    if (!input || input.dataset.offline) return;
    input.dataset.offline = "1";
    var toggle = document.getElementById("__search");
    var meta = document.querySelector(".md-search-result__meta");
    if (meta) meta.textContent = "Type to start searching";
    var run = function () { var q = input.value; load(function () { render(q); }); };
    var opened = function () {
      if (toggle && !toggle.checked) { toggle.checked = true; toggle.dispatchEvent(new Event("change")); }
      load(function () { if (input.value) render(input.value); });
    };
    if (served) {
      // Material's search worker answers late (once its index is loaded, it reads the box and
      // draws its own results): whatever it draws is replaced by this ranking.
      var list = document.querySelector(".md-search-result__list");
      if (list && window.MutationObserver) {
        new MutationObserver(function () {
          if (!input.value) return;
          var foreign = [].some.call(list.children, function (child) { return child.dataset.es !== "1"; });
          if (foreign) run();
        }).observe(list, { childList: true });
      }
    }
    if (served) {          // taken in the capture phase, before Material's listeners on the box see them
      ["input", "keyup"].forEach(function (type) {
        document.addEventListener(type, function (event) {
          if (event.target !== input) return;
          event.stopImmediatePropagation();
          run();
        }, true);
      });
      document.addEventListener("focus", function (event) {
        if (event.target !== input) return;
        event.stopImmediatePropagation();
        opened();
      }, true);
    } else {
      input.addEventListener("input", run);
      input.addEventListener("keyup", run);
      input.addEventListener("focus", opened);
      document.addEventListener("keydown", function (event) {      // Material's shortcuts, which need its search
        if (event.ctrlKey || event.altKey || event.metaKey) return;
        var target = event.target;
        if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
        if (event.key === "/" || event.key === "s" || event.key === "f" || event.key === "S" || event.key === "F") {
          event.preventDefault();
          opened();
          input.focus();
        }
      });
    }
    if (toggle && !served) {        // the search icon (a label for the toggle): open the box and put the cursor in it
      toggle.addEventListener("change", function () {
        if (toggle.checked) { reveal(); setTimeout(function () { input.focus(); }, 50); load(function () {}); }
      });
    }
    var form = input.form;
    if (form) form.addEventListener("submit", function (event) {       // Enter opens the first result
      event.preventDefault();
      var first = document.querySelector(".md-search-result__link");
      if (first) location.href = first.href;
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", attach);
  else attach();
  window.addEventListener("load", reveal);
})();
