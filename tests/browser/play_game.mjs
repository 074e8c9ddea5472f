// Browser test of the web board (`make test-browser`, part of `make test`).
//
//   node tests/browser/play_game.mjs BUILD_DIR ARTIFACT_DIR
//
// Starts `BUILD_DIR/nardy serve --port 0` (localhost), opens the page in Debian's headless
// Chromium through puppeteer-core (no browser download), and plays a complete game against
// the heuristic agent by clicking checkers: roll, pick up a highlighted checker, drop it on a
// highlighted point, confirm: a match to 1, then a whole match to 2 as Black (colours swap
// after each game). It checks every game against the engine — every recorded turn replayed
// with `nardy legal` (a separate process, not the server) must give the page's final position,
// whose outcome must be the page's — and the score. The match to 2 is then checked through the
// match record the page downloads (the server keeps it, POST /api/match...): each game replayed
// with `nardy legal`, scored here from its final position (oin 1, mars 2), White after each
// game the previous Black (next_game_starter=previous_black), and the final score and winner
// must be the page's. It uses the analysis panel with
// a position ID and with bad input, sends a bounded burst of malformed requests over raw
// sockets and HTTP, and checks that the server still answers correctly. Screenshots go to
// ARTIFACT_DIR (web_board_move.png mid-game, web_board_end.png at the end,
// web_board_analysis.png with an analysis).
import { spawn, execFileSync } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';

const [buildDir, artifactDir] = process.argv.slice(2);
if (!buildDir || !artifactDir) {
  console.error('usage: node play_game.mjs BUILD_DIR ARTIFACT_DIR');
  process.exit(2);
}
const nardy = path.resolve(buildDir, 'nardy');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
fs.mkdirSync(artifactDir, { recursive: true });
const SEED = 11;

function startServer() {
  const child = spawn(nardy, ['serve', '--port', '0', '--agent', 'heuristic', '--trials', '20'],
                      { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`nardy serve exited with ${code}: ${out}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) resolve({ child, port: Number(m[1]) });
    });
  });
}

// One raw exchange on a fresh socket: what the server answers to `bytes` (or '' if it closes).
function raw(port, bytes) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let got = '';
    s.setTimeout(8000, () => s.destroy());
    s.on('connect', () => { s.write(bytes); s.end(); });
    s.on('data', (d) => { got += d; });
    s.on('close', () => resolve(got));
    s.on('error', () => resolve(got));
  });
}

// The games of a match record (core/match.h): who is White, the turns (dice, notation).
function parseMatchRecord(text) {
  const games = [];
  for (const line of text.split('\n')) {
    let m;
    if ((m = line.match(/^game white=([01])$/))) games.push({ white: Number(m[1]), turns: [] });
    else if ((m = line.match(/^([1-6])-([1-6]) (.+)$/)) && games.length)
      games.at(-1).turns.push({ dice: [Number(m[1]), Number(m[2])], notation: m[3] });
  }
  return games;
}

// The outcome of a finished game from its final POS (docs/rules.md: the side with no checkers
// left wins; 2 points, a mars, when the loser has borne off none).
function outcomeOf(pos) {
  const counts = pos.split(' ')[0].split(',').map(Number);
  const white = counts.filter((c) => c > 0).reduce((a, c) => a + c, 0);
  const black = counts.filter((c) => c < 0).reduce((a, c) => a - c, 0);
  assert.ok(white === 0 || black === 0, `the game is not over at ${pos}`);
  return white === 0 ? { winner: 'white', points: black === 15 ? 2 : 1 }
                     : { winner: 'black', points: white === 15 ? 2 : 1 };
}

// Replays the page's game record with `nardy legal` and returns the final POS.
function replayWithEngine(history) {
  let pos = '0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w';
  for (const [i, h] of history.entries()) {
    const lines = execFileSync(nardy, ['legal', pos, String(h.dice[0]), String(h.dice[1])])
                      .toString().trim().split('\n');
    const match = lines.map((l) => l.split('\t')).find(([, notation]) => notation === h.notation);
    assert.ok(match, `turn ${i + 1}: ${h.dice.join('-')} ${h.notation} is not legal at ${pos}`);
    pos = match[0];
  }
  return pos;
}

const { child: server, port } = await startServer();
const base = `http://127.0.0.1:${port}`;
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${base}/?seed=${SEED}&to=1`, { waitUntil: 'networkidle0' });

  const idle = () => page.waitForFunction(() => !document.body.dataset.busy, { timeout: 60000 });
  const state = () => page.$eval('#status', (e) => e.dataset.state);
  // Clicks the first or last element matching `selector`, on its transparent hit area (the
  // triangle may be covered by checkers).
  const click = async (selector, which) => {
    const all = await page.$$(selector);
    assert.ok(all.length > 0, `nothing matches ${selector}`);
    await (await all[which === 'last' ? all.length - 1 : 0].$('.hit')).click();
    await idle();
  };

  // Plays the human's side until the game ends, picking the first (or last) highlighted
  // checker and target each time; returns the page's record and figures.
  async function playGame(which, screenshot) {
    let humanTurns = 0, steps = 0;
    for (let i = 0; i < 3000; ++i) {
      const st = await state();
      const err = await page.$eval('#error', (e) => e.textContent);
      assert.equal(err, '', `page error shown: ${err}`);
      if (st === 'game-over' || st === 'match-over') break;
      if (st === 'your-roll') {
        // The bot's reply is drawn as arrows, one per checker path.
        const [last, arrows] = await page.evaluate(() => [S.history.at(-1),
            document.querySelectorAll('#board .bot-arrow').length]);
        if (last && last.notation !== 'pass') assert.ok(arrows >= 1, `no arrows for ${last.notation}`);
        await page.click('#roll');
        await idle();
        ++humanTurns;
      } else if (st === 'your-move') {
        if (await page.$eval('#confirm', (b) => !b.disabled)) {
          await page.click('#confirm');
          await idle();
          continue;
        }
        await click('#board g.point.source', which);
        await page.waitForSelector('#board g.point.target');
        if (screenshot && humanTurns === 4) {
          await page.screenshot({ path: path.join(artifactDir, screenshot), fullPage: true });
          screenshot = null;
        }
        await click('#board g.point.target', which);
        ++steps;
      } else {
        await idle();
      }
    }
    const game = await page.evaluate(() => ({
      state: document.getElementById('status').dataset.state,
      outcome: document.getElementById('status').dataset.outcome,
      finalPos: document.getElementById('status').dataset.finalPos,
      score: document.getElementById('score').textContent.split('\u2013').map(Number),
      pips: document.getElementById('pips').textContent,
      history: S.history,
    }));
    assert.ok(humanTurns >= 10 && steps >= 10, `only ${humanTurns} human turns, ${steps} steps`);
    // The engine, in another process, agrees on every turn and the final position.
    const enginePos = replayWithEngine(game.history);
    assert.equal(enginePos, game.finalPos, 'the page and the engine disagree on the final position');
    game.engineOutcome = (await (await fetch(`${base}/api/position?` +
        new URLSearchParams({ pos: enginePos }))).json()).outcome;
    assert.equal(game.engineOutcome.text, game.outcome);
    console.log(`game finished: ${game.history.length} turns (${humanTurns} yours, ${steps} ` +
                `checker steps clicked), ${game.outcome}, score ${game.score.join('-')}; ` +
                'replayed with nardy legal: same final position');
    return game;
  }

  // A match to 1 point as White: one game decides it.
  await idle();
  const g1 = await playGame('first', 'web_board_move.png');
  assert.equal(g1.state, 'match-over', 'the game (a match to 1) did not finish the match');
  const o1 = g1.engineOutcome;
  assert.deepEqual(g1.score, o1.winner === 'white' ? [o1.points, 0] : [0, o1.points]);
  await page.screenshot({ path: path.join(artifactDir, 'web_board_end.png'), fullPage: true });

  // A match to 2 as Black, playing the last highlighted checker and target (bearing off into
  // the tray when it can), game after game until it is over: after a game the score, then
  // colours swap (next_game_starter=previous_black).
  await page.select('#target', '2');
  await page.select('#colour', 'black');
  await page.click('#new-match');
  await idle();
  const played = [];
  for (let g = 1; ; ++g) {
    const game = await playGame('last', null);
    played.push(game);
    assert.match(game.pips, new RegExp(`You \\((${g % 2 ? 'black' : 'white'})\\)`));
    if (game.state === 'match-over') break;
    assert.equal(game.state, 'game-over');
    assert.ok(g < 3, 'a match to 2 without draws takes at most 3 games');
    await page.click('#next-game');
    await idle();
    assert.equal(await page.$eval('#game-no', (e) => e.textContent), String(g + 1));
    assert.match(await page.$eval('#pips', (e) => e.textContent),
                 new RegExp(`You \\((${g % 2 ? 'white' : 'black'})\\) pips 360`));
  }
  // The record the page downloads (the server's), checked against the engine and scored here.
  await page.click('#download');
  const record = await page.$eval('#download-link', async (a) => (await fetch(a.href)).text());
  fs.writeFileSync(path.join(artifactDir, 'web_match_record.txt'), record);
  assert.match(record, /^nardy-match 1\ntarget 2\n/);
  const games = parseMatchRecord(record);
  assert.equal(games.length, played.length);
  const score = [0, 0];
  let white = 1;  // you (player 0) were Black in game 1
  for (const [i, g] of games.entries()) {
    assert.equal(g.white, white, `game ${i + 1}: White should be player ${white}`);
    const finalPos = replayWithEngine(g.turns);
    assert.equal(finalPos, played[i].finalPos, `game ${i + 1}: the record's final position`);
    const o = outcomeOf(finalPos);
    score[o.winner === 'white' ? white : 1 - white] += o.points;
    white = 1 - white;  // previous_black: the previous game's Black is White
  }
  const last = played.at(-1);
  assert.deepEqual(last.score, score, 'the page shows another score than the record gives');
  assert.ok(Math.max(...score) >= 2);
  const winner = score[0] > score[1] ? 'you win' : 'the bot wins';
  assert.match(await page.$eval('#status', (e) => e.textContent), new RegExp(winner));
  console.log(`match to 2: ${games.length} game(s), final score ${score.join('-')} (${winner}); ` +
              'the downloaded record replays with nardy legal to the same score');

  // The analysis panel: a position ID, then bad input.
  await page.$eval('#an-pos', (e) => { e.value = '-_PAAAw__BAAAA'; });
  await page.$eval('#an-dice', (e) => { e.value = '5-3'; });
  await page.click('#an-run');
  await idle();
  const rows = await page.$$eval('#an-table tbody tr', (r) => r.length);
  const startPos = '0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15 w';
  const legalCount = execFileSync(nardy, ['legal', startPos, '5', '3']).toString().trim()
                         .split('\n').length;
  assert.equal(rows, legalCount);
  assert.match(await page.$eval('#an-method', (e) => e.textContent), /agent heuristic/);
  assert.ok(await page.$eval('#an-board svg', (s) => !!s));
  await page.screenshot({ path: path.join(artifactDir, 'web_board_analysis.png'), fullPage: true });
  await page.$eval('#an-pos', (e) => { e.value = '1,2,3 w'; });
  await page.click('#an-run');
  await idle();
  const anError = await page.$eval('#an-error', (e) => e.textContent);
  assert.match(anError, /^pos: /);
  assert.deepEqual(pageErrors, []);

  // A bounded burst of malformed requests (localhost only); the server must keep answering.
  const junk = [
    'GARBAGE\r\n\r\n', '\x00\x01\x02\xff\r\n\r\n', 'GET\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n',
    'GET /api/legal?pos=%zz%&dice=%%% HTTP/1.1\r\nHost: x\r\n\r\n',
    `GET /${'a'.repeat(20000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(70000)}\r\n\r\n`,
    'POST /api/legal HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\nabc',
    'GET /api/legal HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
    'GET /api/legal?pos=', // truncated, no end of headers
  ];
  const badQueries = [
    'legal?pos=&dice=', 'legal?pos=1,2&dice=6,5', 'legal?dice=9,9', 'move?pos=%00&dice=1,1',
    'analyze?pos=-_PAAAw__BAAAA&dice=5,3&trials=-1', 'eval?pos=-_PAAAw__BAAAA&trials=1e9',
    'steps?pos=-_PAAAw__BAAAA&dice=5,3&played=24/19,24/19,24/19,24/19,24/19',
    'show?pos=-_PAAAw__BAAAA&move=99/1', 'roll?pos=-_PAAAw__BAAAA&seed=abc', 'next_game?pos=x',
  ];
  let answered400 = 0, rawCount = 0;
  for (let round = 0; round < 10; ++round) {
    const batch = [];
    for (const j of junk) batch.push(raw(port, j).then(() => ++rawCount));
    for (const q of badQueries)
      batch.push(fetch(`${base}/api/${q}`).then(async (r) => {
        assert.equal(r.status, 400, q);
        assert.ok((await r.json()).error, q);
        ++answered400;
      }));
    await Promise.all(batch);
  }
  const after = await (await fetch(`${base}/api/legal?pos=-_PAAAw__BAAAA&dice=6,5`)).json();
  assert.equal(after.moves[0].notation, '24/13');
  assert.equal(server.exitCode, null, 'the server died');
  console.log(`malformed burst: ${rawCount} raw requests, ${answered400} answered 400; ` +
              'the server still answers');
  console.log('browser test passed; screenshots in ' + artifactDir);
} finally {
  await browser.close();
  server.kill();
}
