// Print pages to PDF in one start of Debian's headless Chromium, as `chromium --headless
// --print-to-pdf --no-pdf-header-footer` prints one page a start: after the load event,
// DevTools' Page.printToPDF with the parameters the --print-to-pdf switch sends
// (printBackground, preferCSSPageSize, no header or footer; the default margins and paper).
//
//   node print_pages.mjs '{"jobs": [["file:///tmp/a.html", "/tmp/a.pdf"], ...], "concurrency": 2}'
//
// Prints one JSON object: {printed: {pdf: true | "the error"}}. Never downloads a browser.
import { chromium } from "playwright-core";
import { writeFileSync } from "node:fs";

const config = JSON.parse(process.argv[2]);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
});
const printed = {};
let next = 0;
async function worker() {
  while (next < config.jobs.length) {
    const [url, pdf] = config.jobs[next++];
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(url, { waitUntil: "load" });
      const session = await context.newCDPSession(tab);
      const { data } = await session.send("Page.printToPDF",
        { printBackground: true, preferCSSPageSize: true, displayHeaderFooter: false });
      writeFileSync(pdf, Buffer.from(data, "base64"));
      printed[pdf] = true;
    } catch (error) {
      printed[pdf] = String(error);
    } finally {
      await context.close();
    }
  }
}
await Promise.all(Array.from({ length: config.concurrency || 2 }, worker));
await browser.close();
process.stdout.write(JSON.stringify({ printed }));
