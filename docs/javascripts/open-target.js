// A link to a rule, an option's rule or a worked example folded inside a closed <details>
// (the variant pages fold the house rules and the later examples so that they read on a
// phone): open every <details> around the target, then scroll it into view. Works from
// file:// and with Material's instant navigation.
(function () {
  "use strict";
  function openTarget(event) {
    var id = decodeURIComponent((location.hash || "").slice(1));
    if (!id) return;
    var target = document.getElementById(id);
    if (!target) return;
    var opened = false;
    for (var up = target; up; up = up.parentElement) {
      if (up.tagName === "DETAILS" && !up.open) { up.open = true; opened = true; }
    }
    // After a link on the page (a search result, whose closing search box puts the old
    // scroll back), scroll once the page has settled.
    if (opened || (event && event.type === "hashchange")) {
      target.scrollIntoView();
      setTimeout(function () { target.scrollIntoView(); }, 120);
    }
  }
  window.addEventListener("hashchange", openTarget);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", openTarget);
  else openTarget();
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(openTarget);
})();
