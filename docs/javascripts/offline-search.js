// Search for the site opened from disk (file://), where Material's search cannot start (its
// worker and its index are fetched, which browsers refuse for files). The build writes the
// same index as a script (search/search_index.js, by rules_site/hooks.py); this loads it with
// a <script> tag (it defines `__index`, the name Material's bundle also reads on file://) and
// answers the search box itself, in Material's own result markup.
// Served over http(s), it does nothing: Material's search runs as usual.
(function () {
  "use strict";
  if (location.protocol !== "file:") return;
  var config = {};
  try { config = JSON.parse(document.getElementById("__config").textContent); } catch (e) { /* no config */ }
  var base = new URL((config.base || ".") + "/", location.href);
  var index = null, loading = false, pending = null;

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
        return { doc: doc, title: (doc.title || "").toLowerCase(), text: (doc.text || "").replace(/<[^>]+>/g, " ").toLowerCase() };
      });
      if (pending) pending();
    };
    document.head.appendChild(script);
  }

  function terms(query) {
    return query.toLowerCase().split(/[^\p{L}\p{N}♠♣♥♦-]+/u).filter(function (t) { return t.length > 0; });
  }

  function search(query) {
    var words = terms(query);
    if (!words.length) return [];
    var hits = [];
    index.forEach(function (entry) {
      var score = 0;
      for (var i = 0; i < words.length; i++) {
        var w = words[i];
        var inTitle = entry.title.indexOf(w) >= 0;
        var at = entry.text.indexOf(w);
        if (!inTitle && at < 0) return;
        score += (inTitle ? 10 : 0) + (at >= 0 ? 1 : 0);
      }
      hits.push({ entry: entry, score: score });
    });
    hits.sort(function (a, b) { return b.score - a.score; });
    return hits.slice(0, 20);
  }

  function snippet(entry, words) {
    var text = (entry.doc.text || "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
    var at = text.toLowerCase().indexOf(words[0]);
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
    meta.textContent = hits.length ? hits.length + (hits.length === 20 ? "+" : "") + " matching documents" : "No matching documents";
    hits.forEach(function (hit) {
      var item = document.createElement("li");
      item.className = "md-search-result__item";
      var link = document.createElement("a");
      link.className = "md-search-result__link";
      link.href = new URL(hit.entry.doc.location, base).href;
      var article = document.createElement("article");
      article.className = "md-search-result__article md-typeset";
      var title = document.createElement("h1");
      title.textContent = hit.entry.doc.title || hit.entry.doc.location;
      var text = document.createElement("p");
      text.textContent = snippet(hit.entry, words);
      article.appendChild(title);
      article.appendChild(text);
      link.appendChild(article);
      item.appendChild(link);
      list.appendChild(item);
    });
  }

  function attach() {
    var input = document.querySelector(".md-search__input");
    if (!input || input.dataset.offline) return;
    input.dataset.offline = "1";
    var meta = document.querySelector(".md-search-result__meta");
    if (meta) meta.textContent = "Type to start searching";
    var run = function () { var q = input.value; load(function () { render(q); }); };
    input.addEventListener("input", run);
    input.addEventListener("keyup", run);
    input.addEventListener("focus", function () { load(function () {}); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", attach);
  else attach();
})();
