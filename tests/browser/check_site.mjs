// The rules site in headless Chromium: for each page and each width, whether the page
// scrolls sideways (and which elements stick out), a screenshot of its first screen, every
// request that left the site, and (once per page) an axe-core audit.
//
//   node check_site.mjs '{"base": "http://127.0.0.1:8000/", "pages": ["index.html"],
//                         "widths": [1280, 390], "out": "/tmp/shots", "axe": true}'
//
// Prints one JSON object: {pages: {page: {width: {...}}}}. Uses Debian's /usr/bin/chromium
// (CHROMIUM overrides it); never downloads a browser.
import { chromium } from "playwright-core";
import { createRequire } from "node:module";
import { mkdirSync } from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const AXE = require.resolve("axe-core/axe.min.js");
const config = JSON.parse(process.argv[2]);
const widths = config.widths || [1280, 390];
const concurrency = config.concurrency || 2;
if (config.out) mkdirSync(config.out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
});
const base = new URL(config.base);
const local = (url) => url.startsWith("data:") || url.startsWith("blob:") || url.startsWith("about:") ||
  (base.protocol === "file:" ? url.startsWith("file:") : new URL(url).host === base.host);

async function visit(page, width) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
  const tab = await context.newPage();
  const offsite = [];
  const errors = [];
  await tab.route("**/*", (route) => {
    const url = route.request().url();
    if (local(url)) return route.continue();
    offsite.push(url);
    return route.abort();
  });
  tab.on("pageerror", (error) => errors.push(String(error)));
  const url = new URL(page, base).href;
  const response = await tab.goto(url, { waitUntil: "load" });
  await tab.waitForTimeout(150);
  const found = await tab.evaluate(() => {
    const root = document.documentElement;
    const view = root.clientWidth;
    const wide = [];
    for (const el of document.querySelectorAll("body *")) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= view + 1) continue;
      // an element inside a scrolling box (a wide table in its own scroller) does not widen the page
      let clipped = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (/(auto|scroll|hidden|clip)/.test(style.overflowX) && up.getBoundingClientRect().right <= view + 1) {
          clipped = true;
          break;
        }
      }
      if (!clipped && wide.length < 8) wide.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} right=${Math.round(box.right)}`);
    }
    const headings = [...document.querySelectorAll("article h1, article h2, article h3, article h4, article h5, article h6")]
      .map((h) => ({ level: +h.tagName[1], text: h.textContent.replace(/¶$/, "").trim(), id: h.id }));
    return {
      title: document.title,
      h1: (document.querySelector("article h1") || {}).textContent || null,
      scroll_width: root.scrollWidth,
      client_width: view,
      page_scrolls_sideways: root.scrollWidth > view + 1,
      wide,
      headings,
      cards: document.querySelectorAll(".es-card").length,
      height: root.scrollHeight,
    };
  });
  found.status = response ? response.status() : null;
  found.offsite = offsite;
  found.errors = errors;
  if (config.out) {
    const name = page.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home";
    found.screenshot = path.join(config.out, `${name}-${width}.png`);
    await tab.screenshot({ path: found.screenshot, fullPage: false });
  }
  if (config.axe && width === widths[0]) {
    await tab.addScriptTag({ path: AXE });
    found.axe = await tab.evaluate(async () => {
      const result = await window.axe.run(document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
        resultTypes: ["violations"],
      });
      return result.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
        examples: v.nodes.slice(0, 3).map((n) => ({ target: n.target.join(" "), summary: (n.failureSummary || "").slice(0, 300) })),
      }));
    });
  }
  if (config.search) {            // type into the search box and count the results shown
    found.search = await tab.evaluate(async (query) => {
      const input = document.querySelector("input.md-search__input, input[data-md-component=search-query]");
      if (!input) return { error: "no search box" };
      const toggle = document.getElementById("__search");
      if (toggle) { toggle.checked = true; toggle.dispatchEvent(new Event("change")); }
      input.focus();
      input.value = query;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true, key: "r" }));
      for (let i = 0; i < 40; i++) {
        const items = document.querySelectorAll(".md-search-result__item");
        if (items.length) {
          return { results: items.length, first: items[0].textContent.trim().slice(0, 80),
                   href: (items[0].querySelector("a") || {}).href || null };
        }
        await new Promise((done) => setTimeout(done, 100));
      }
      const meta = document.querySelector(".md-search-result__meta");
      return { results: 0, meta: meta ? meta.textContent.trim() : null };
    }, config.search);
  }
  if (config.evaluate && config.evaluate[page]) {
    found.evaluated = await tab.evaluate(config.evaluate[page]);
  }
  await context.close();
  return found;
}

const jobs = [];
for (const page of config.pages) for (const width of widths) jobs.push([page, width]);
const results = {};
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const [page, width] = jobs[next++];
    try {
      (results[page] ||= {})[width] = await visit(page, width);
    } catch (error) {
      (results[page] ||= {})[width] = { failed: String(error) };
    }
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await browser.close();
process.stdout.write(JSON.stringify({ pages: results }));
