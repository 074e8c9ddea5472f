// Browser test of the web board in its players' languages (selfplay/protocol/web/i18n.js).
//
//   node tests/browser/board_languages.mjs BUILD_DIR ARTIFACT_DIR
//
// First the string tables' check (i18n_keys.mjs: every language has every key). Then, against
// `BUILD_DIR/nardy serve --port 0 --agent heuristic` in Debian's headless Chromium
// (puppeteer-core): opens the board with ?lang=ru and plays a few turns by clicking, checking
// that what is shown is Russian (buttons, status, pips, history, the bot's reply, the tutor's
// warning, the review view) and that no English is left; then switches to every other language
// with the switch, mid-game: each text re-rendered in place, the game kept, the choice in the
// URL and in localStorage; a reload and a visit without ?lang keep the last choice; a fresh
// browser profile follows navigator.languages (Ukrainian; English for a language the board has
// not). Screenshots: ARTIFACT_DIR/web_board_<code>.png for each language.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { checkI18n, loadI18n } from './i18n_keys.mjs';

const [buildDir, artifactDir] = process.argv.slice(2);
if (!buildDir || !artifactDir) {
  console.error('usage: node board_languages.mjs BUILD_DIR ARTIFACT_DIR');
  process.exit(2);
}
const { codes, keys } = checkI18n();
console.log(`string tables: ${codes.length} languages, ${keys} keys each`);
const I18N = loadI18n();
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m));

const nardy = path.resolve(buildDir, 'nardy');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
fs.mkdirSync(artifactDir, { recursive: true });

const child = spawn(nardy, ['serve', '--port', '0', '--agent', 'heuristic', '--trials', '8'],
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
const base = `http://127.0.0.1:${port}`;
const browser = await puppeteer.launch({
  executablePath: chromium, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const idle = () => page.waitForFunction(() => !document.body.dataset.busy && S.info,
                                          { timeout: 120000 });
  const text = (sel) => page.$eval(sel, (e) => e.textContent);
  const state = () => page.$eval('#status', (e) => e.dataset.state);
  const lang = () => page.evaluate(() => [document.documentElement.lang, LANG,
                                          document.getElementById('lang').value]);

  // ---- Russian from the URL ----
  await page.goto(`${base}/?seed=7&to=3&lang=ru`, { waitUntil: 'networkidle0' });
  await idle();
  const ru = I18N.ru;
  assert.deepEqual(await lang(), ['ru', 'ru', 'ru']);
  assert.equal(await page.title(), ru.page_title);
  assert.equal(await text('#roll'), ru.roll);
  assert.equal(await text('#confirm'), ru.confirm);
  assert.equal(await text('#analysis h2'), ru.analysis);
  assert.equal(await text('#rules-hint'), ru.rules_hint);
  assert.equal(await state(), 'your-roll');
  assert.equal(await text('#status'), fill(ru.your_roll, { side: ru.side_white }));
  assert.match(await text('#pips'), /^Вы \(белые\): пипсы 360, выброшено 0 · Бот \(чёрные\): пипсы 360/);
  assert.match(await text('#score-note'), /^\(вы – бот, до 3\)$/);
  assert.equal(await page.$eval('#colour', (s) => s.selectedOptions[0].textContent), ru.colour_white);
  const trayTexts = () => page.$$eval('#board .tray-text', (l) => l.map((e) => e.textContent));
  assert.deepEqual(await trayTexts(), ['Ч 0', 'Б 0', ru.tray_off]);

  // Plays your turn by clicking the first highlighted checker and point until it can be
  // confirmed, then confirms; the bot replies.
  async function playTurn() {
    await page.click('#roll');
    await idle();
    assert.equal(await state(), 'your-move');
    const dice = await page.evaluate(() => S.dice.join('-'));
    assert.equal(await text('#status'), fill(ru.your_move, { side: ru.side_white, dice }));
    for (let i = 0; i < 8 && !(await page.$eval('#confirm', (b) => !b.disabled)); ++i) {
      await (await (await page.$('#board g.point.source')).$('.hit')).click();
      await idle();
      await (await (await page.$('#board g.point.target')).$('.hit')).click();
      await idle();
    }
    const status = await text('#status');
    assert.ok(status.startsWith('Ваш ход: ') && status.endsWith(' — подтвердите его') ||
              status === ru.no_legal_move, status);
    await page.click('#confirm');
    await idle();
  }
  for (let turn = 0; turn < 3; ++turn) await playTurn();
  assert.equal(await state(), 'your-roll');
  const history = await page.$$eval('#history li', (l) => l.map((e) => e.textContent));
  assert.ok(history.length >= 6, `${history.length} moves`);
  for (const [i, h] of history.entries()) assert.match(h, i % 2 ? /^Ч \d-\d / : /^Б \d-\d /);
  assert.match(await text('#bot-reply'), /^Боту \(чёрные\) выпало \d-\d, он сыграл /);

  // The tutor, in Russian: at a tiny threshold it holds back the last listed move.
  await page.$eval('#an-trials', (e) => { e.value = '8'; });
  await page.click('#tutor');
  await page.$eval('#tutor-threshold', (e) => { e.value = '0.001'; });
  let held = false;
  for (let turn = 0; turn < 4 && !held; ++turn) {
    await page.click('#roll');
    await idle();
    await page.$eval('#legal-list', (s) => { s.selectedIndex = s.options.length - 1; });
    await page.click('#play-listed');
    await idle();
    const warning = await text('#tutor-out');
    if (warning) {
      held = true;
      assert.match(warning, /^Тренер: ход .* теряет \d\.\d{3} очка эквити по сравнению с лучшим ходом .*\(роллауты \(8 партий на ход, стратифицированные броски\)\)\. Оставьте его или сыграйте другой ход\.$/);
      assert.equal(await text('#tutor-keep'), ru.tutor_keep);
      await page.click('#tutor-keep');
      await idle();
    }
  }
  assert.ok(held, 'the tutor held a move back');
  await page.click('#tutor');
  assert.equal(await state(), 'your-roll');

  // The review view, in Russian.
  await page.click('#rv-match');
  await idle();
  assert.equal(await text('#rv-error'), '');
  const summaryLabels = () => page.$$eval('#rv-summary tr td:first-child', (l) => l.map((e) => e.textContent));
  assert.deepEqual((await summaryLabels()).slice(0, 2), [ru.rv_decisions, ru.rv_total_error]);
  assert.match(await text('#rv-turn'), /^Партия 1, ход \d+: /);
  const ratings = await page.$$eval('#rv-summary tr', (rows) => [...rows[4].cells].slice(1).map((c) => c.textContent));
  const bands = Object.keys(ru).filter((k) => k.startsWith('band_')).map((k) => ru[k]);
  for (const r of ratings) assert.ok(bands.some((b) => r.endsWith(' ' + b)), `rating "${r}"`);
  assert.equal(await text('#rv-turns thead th:nth-child(5)'), ru.col_mark);
  // The server's SVG board of the turn, its caption translated here (core/board_svg.cpp).
  assert.match(await page.$eval('#rv-played svg', (s) => s.textContent),
               /Белые: пипсы \d+, выброшено \d+, на голове \d+ {4}Чёрные: .* ходят (белые|чёрные)/);

  // No English left in what a player reads (the rules' key=value text and notation aside).
  const visible = await page.evaluate(() => document.body.innerText);
  for (const english of ['Roll dice', 'Confirm move', 'Your ', 'Bot (', 'rolled', 'Review this',
                         'Analysis', 'Previous turn', 'decisions', 'Tutor', 'pips', 'Match to'])
    assert.ok(!visible.includes(english), `English "${english}" on the Russian page`);
  await page.screenshot({ path: path.join(artifactDir, 'web_board_ru.png'), fullPage: true });

  // ---- The switch: every language in place, the game kept ----
  const kept = await page.evaluate(() => [S.history.length, S.match.record, RV.at]);
  for (const code of ['en', 'uk', 'az', 'tr']) {
    const L = I18N[code];
    await page.select('#lang', code);
    await idle();
    assert.deepEqual(await lang(), [code, code, code]);
    assert.equal(await page.evaluate(() => new URL(location.href).searchParams.get('lang')), code);
    assert.equal(await page.evaluate(() => localStorage.getItem('nardy.lang')), code);
    assert.equal(await page.title(), L.page_title);
    assert.equal(await text('#roll'), L.roll);
    assert.equal(await text('#new-match'), L.new_match);
    assert.equal(await text('#status'), fill(L.your_roll, { side: L.side_white }));
    assert.ok((await text('#pips')).startsWith(`${L.you} (${L.side_white})`), await text('#pips'));
    assert.deepEqual((await summaryLabels()).slice(0, 2), [L.rv_decisions, L.rv_total_error]);
    assert.equal((await trayTexts())[2], L.tray_off);
    assert.ok((await page.$$eval('#history li', (l) => l.map((e) => e.textContent)))
                  .every((h, i) => h.startsWith((i % 2 ? L.letter_black : L.letter_white) + ' ')));
    assert.ok((await text('#rv-turn')).startsWith(fill(L.rv_turn, { game: 1 }).split('{')[0]));
    assert.deepEqual(await page.evaluate(() => [S.history.length, S.match.record, RV.at]), kept,
                     `${code}: the game and the review are kept`);
    await page.screenshot({ path: path.join(artifactDir, `web_board_${code}.png`), fullPage: true });
  }
  // English is the page the other browser tests know.
  await page.select('#lang', 'en');
  await idle();
  assert.equal(await text('#status'), 'Your turn (white): roll the dice');
  assert.match(await text('#rv-turn'), /^Game 1, turn \d+: /);
  await page.select('#lang', 'az');
  await idle();

  // ---- The choice persists: a reload (the URL has it), then a visit without ?lang ----
  await page.reload({ waitUntil: 'networkidle0' });
  await idle();
  assert.deepEqual(await lang(), ['az', 'az', 'az']);
  assert.equal(await text('#roll'), I18N.az.roll);
  await page.goto(`${base}/?seed=7&to=1`, { waitUntil: 'networkidle0' });
  await idle();
  assert.deepEqual(await lang(), ['az', 'az', 'az'], 'localStorage keeps the choice');
  assert.equal(await text('#status'), fill(I18N.az.your_roll, { side: I18N.az.side_white }));
  // ?lang= wins over the stored choice (without changing it); an unknown code is ignored.
  await page.goto(`${base}/?seed=7&to=1&lang=tr`, { waitUntil: 'networkidle0' });
  await idle();
  assert.deepEqual(await lang(), ['tr', 'tr', 'tr']);
  assert.equal(await page.evaluate(() => localStorage.getItem('nardy.lang')), 'az');
  await page.goto(`${base}/?seed=7&to=1&lang=xx`, { waitUntil: 'networkidle0' });
  await idle();
  assert.deepEqual(await lang(), ['az', 'az', 'az']);
  assert.deepEqual(pageErrors, []);

  // ---- A fresh profile follows the browser's languages ----
  async function freshPage(languages) {
    const context = await browser.createBrowserContext();
    const p = await context.newPage();
    p.on('pageerror', (e) => pageErrors.push(String(e)));
    await p.evaluateOnNewDocument((l) => {
      Object.defineProperty(navigator, 'languages', { get: () => l });
    }, languages);
    await p.goto(`${base}/?seed=7&to=1`, { waitUntil: 'networkidle0' });
    await p.waitForFunction(() => !document.body.dataset.busy && S.info, { timeout: 120000 });
    const got = await p.evaluate(() => [LANG, document.getElementById('roll').textContent]);
    await context.close();
    return got;
  }
  assert.deepEqual(await freshPage(['de-DE', 'uk-UA', 'en']), ['uk', I18N.uk.roll]);
  assert.deepEqual(await freshPage(['tr-TR']), ['tr', I18N.tr.roll]);
  assert.deepEqual(await freshPage(['de-DE', 'fr']), ['en', 'Roll dice']);
  assert.deepEqual(pageErrors, []);
  console.log(`board in ${codes.join(', ')}: played ${history.length} moves in Russian (tutor and ` +
              'review too), switched languages mid-game keeping it, the choice persists; ' +
              `screenshots web_board_<lang>.png in ${artifactDir}`);
} finally {
  await browser.close();
  child.kill();
}
