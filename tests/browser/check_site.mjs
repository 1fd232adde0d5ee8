// The rules site in headless Chromium: for each page and each width, whether the page
// scrolls sideways (and which elements stick out), a screenshot of its first screen, every
// request that left the site, and (once per page) an axe-core audit.
//
//   node check_site.mjs '{"base": "http://127.0.0.1:8000/", "pages": ["index.html"],
//                         "widths": [1280, 390], "out": "/tmp/shots", "axe": true}'
//
// Prints one JSON object: {pages: {page: {width: {...}}}}. With "visits" (a list of {key, page,
// width, person?, evaluate?, search?}), several visits of one page with different plans are
// made in the same browser (each start of chromium costs about a second of CPU), and their
// results are printed as {visits: {key: {...}}}. Uses Debian's /usr/bin/chromium (CHROMIUM
// overrides it); never downloads a browser.
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

async function visit(page, width, plan) {
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
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
        resultTypes: ["violations"],
      });
      return result.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
        examples: v.nodes.slice(0, 3).map((n) => ({ target: n.target.join(" "), summary: (n.failureSummary || "").slice(0, 300) })),
      }));
    });
  }
  if (plan.search) {              // type into the search box and count the results shown
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
    }, plan.search);
  }
  if (plan.person) {              // click and type as a person does, then read what is shown
    found.person = await actAsAPerson(tab, plan.person);
  }
  if (plan.evaluate) {
    found.evaluated = await tab.evaluate(plan.evaluate);
  }
  await context.close();
  return found;
}

// Steps: {click: selector} (a real mouse click on the first visible match), {type: text}
// (key by key), {wait: ms}, {press: key}. Then: the search box's size on screen, the results
// shown (title, where, link) and, with {follow: true}, where clicking the first result lands.
async function actAsAPerson(tab, plan) {
  const out = { steps: [] };
  for (const step of plan.steps || []) {
    try {
      if (step.click) await tab.locator(step.click).locator("visible=true").first().click({ timeout: 3000 });
      if (step.type) await tab.keyboard.type(step.type, { delay: 15 });
      if (step.press) await tab.keyboard.press(step.press);
      await tab.waitForTimeout(step.wait || 100);
      out.steps.push("ok");
    } catch (error) {
      out.steps.push(`failed: ${String(error).split("\n")[0]}`);
    }
  }
  Object.assign(out, await tab.evaluate(() => {
    const input = document.querySelector(".md-search__input");
    const box = input ? input.getBoundingClientRect() : null;
    const results = [...document.querySelectorAll(".md-search-result__item")].slice(0, 10).map((item) => ({
      title: (item.querySelector("h1") || {}).textContent || "",
      where: (item.querySelector(".es-search-page") || {}).textContent || "",
      href: (item.querySelector("a") || {}).href || "",
      visible: item.getBoundingClientRect().height > 0,
    }));
    return { input_visible: !!box && box.width > 100 && box.height > 10 && getComputedStyle(input).visibility !== "hidden",
             input_focused: document.activeElement === input, results };
  }));
  if (plan.follow && out.results.length) {
    await tab.locator(".md-search-result__item a").locator("visible=true").first().click({ timeout: 3000 });
    await tab.waitForTimeout(400);
    out.landed = await tab.evaluate(() => {
      const id = decodeURIComponent(location.hash.slice(1));
      const target = id ? document.getElementById(id) : null;
      const box = target ? target.getBoundingClientRect() : null;
      return { url: location.href, target: !!target, target_visible: !!box && box.height > 0 && box.bottom > 0 && box.top < innerHeight };
    });
  }
  return out;
}

// A job: [where its result goes, page, width, plan].
const jobs = [];
const results = {};
const visits = {};
for (const page of config.pages || []) {
  for (const width of widths) {
    const plan = { search: config.search, person: (config.person || {})[page], evaluate: (config.evaluate || {})[page] };
    jobs.push([(results[page] ||= {}), String(width), page, width, plan]);
  }
}
for (const one of config.visits || []) jobs.push([visits, one.key, one.page, one.width, one]);
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const [into, key, page, width, plan] = jobs[next++];
    try {
      into[key] = await visit(page, width, plan);
    } catch (error) {
      into[key] = { failed: String(error) };
    }
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await browser.close();
process.stdout.write(JSON.stringify(config.visits ? { pages: results, visits } : { pages: results }));
