// Browser test of the web board's tutor and review view (selfplay/protocol/web/review.js).
//
//   node tests/browser/review_view.mjs BUILD_DIR ARTIFACT_DIR
//
// Starts `BUILD_DIR/nardy serve --port 0 --agent heuristic` (localhost) in Debian's headless
// Chromium through puppeteer-core. With the tutor on at a tiny threshold, plays listed moves:
// a move the tutor holds back is not played until "Keep my move"; then reviews the match, checks
// the view's turns against `nardy review --json` of the same record (the page's downloaded
// match record, reviewed by the CLI with the same agent), steps to a marked move and clicks the
// equity graph. Screenshot: ARTIFACT_DIR/web_review.png.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';

const [buildDir, artifactDir] = process.argv.slice(2);
if (!buildDir || !artifactDir) {
  console.error('usage: node review_view.mjs BUILD_DIR ARTIFACT_DIR');
  process.exit(2);
}
const nardy = path.resolve(buildDir, 'nardy');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
fs.mkdirSync(artifactDir, { recursive: true });
const TRIALS = '8';

const child = spawn(nardy, ['serve', '--port', '0', '--agent', 'heuristic', '--trials', TRIALS],
                    { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve, reject) => {
  let out = '';
  child.on('exit', (code) => reject(new Error(`nardy serve exited with ${code}: ${out}`)));
  child.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
    if (m) resolve(Number(m[1]));
  });
});
const browser = await puppeteer.launch({
  executablePath: chromium, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1400 });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`http://127.0.0.1:${port}/?seed=5&to=1`, { waitUntil: 'networkidle0' });
  const idle = () => page.waitForFunction(() => !document.body.dataset.busy, { timeout: 120000 });
  await idle();
  await page.$eval('#an-trials', (e) => { e.value = '8'; });
  await page.click('#tutor');
  await page.$eval('#tutor-threshold', (e) => { e.value = '0.001'; });

  // Six of your turns: roll, choose the last listed move; keep it when the tutor objects.
  let held = 0;
  for (let turn = 0; turn < 6; ++turn) {
    const state = await page.$eval('#status', (e) => e.dataset.state);
    if (state !== 'your-roll') break;
    await page.click('#roll');
    await idle();
    await page.$eval('#legal-list', (s) => { s.selectedIndex = s.options.length - 1; });
    const before = await page.$$eval('#history li', (l) => l.length);
    await page.click('#play-listed');
    await idle();
    const warning = await page.$eval('#tutor-out', (e) => e.textContent);
    if (warning) {
      ++held;
      assert.match(warning, /^Tutor: .* loses \d\.\d{3} points of equity against the best move /);
      assert.equal(await page.$$eval('#history li', (l) => l.length), before, 'held back, not played');
      assert.equal(await page.$eval('#tutor-keep', (e) => e.hidden), false);
      await page.click('#tutor-keep');
      await idle();
      assert.equal(await page.$eval('#tutor-out', (e) => e.textContent), '');
    }
    assert.ok((await page.$$eval('#history li', (l) => l.length)) > before, `turn ${turn}: played`);
  }
  assert.ok(held > 0, 'the tutor held back at least one move at threshold 0.001');

  // The review of the match so far, and the CLI's review of the same record.
  await page.click('#rv-match');
  await idle();
  assert.equal(await page.$eval('#rv-error', (e) => e.textContent), '');
  const record = await page.evaluate(() => S.match.record);
  const file = path.join(artifactDir, 'web_review_record.txt');
  fs.writeFileSync(file, record);
  const json = path.join(artifactDir, 'web_review_cli.json');
  execFileSync(nardy, ['review', file, '--agent', 'heuristic', '--trials', '36', '--json', json,
                       '--quiet']);
  const cli = JSON.parse(fs.readFileSync(json, 'utf8'));
  const view = await page.evaluate(() => RV.turns.map((t) => [t.dice, t.played.notation, t.best.notation, t.error]));
  const cliTurns = cli.games.flatMap((g) => g.turns.map((t) => [t.dice, t.played.notation, t.best.notation, t.error]));
  assert.deepEqual(view, cliTurns, 'the page shows the review nardy review gives');
  const rows = await page.$$eval('#rv-turns tbody tr', (r) => r.length);
  assert.equal(rows, cliTurns.length);
  // Step to a marked move, then jump with the graph.
  await page.click('#rv-next-mark');
  await idle();
  const caption = await page.$eval('#rv-turn', (e) => e.textContent);
  assert.match(caption, /^Game 1, turn \d+: /);
  assert.ok((await page.$$eval('#rv-played svg', (s) => s.length)) === 1, 'the played move drawn');
  const dots = await page.$$('#rv-graph circle');
  assert.equal(dots.length, cliTurns.length);
  await dots[2].click();
  await idle();
  assert.match(await page.$eval('#rv-turn', (e) => e.textContent), /^Game 1, turn 3: /);
  await page.screenshot({ path: path.join(artifactDir, 'web_review.png'), fullPage: true });
  assert.deepEqual(pageErrors, []);
  console.log(`tutor held ${held} move(s); review view of ${cliTurns.length} turns matches nardy review`);
} finally {
  await browser.close();
  child.kill();
}
