// The nardy web board: a game or match against the server's agent, played by clicking
// checkers, and an analysis panel. The server is the authority on the match: the page holds
// the match record (core/match.h) and sends it with every turn to POST /api/match/play (your
// move), /api/match/agent (the bot's) and /api/match/next, which answer with the updated
// record and the match state (score, the position, the end of a game or the match, who is White
// next). Every other rule question (legal steps, dice) is a GET /api/ call to `nardy serve`
// (selfplay/protocol/http_api.h). Dice come from /api/roll with the match seed, so a seed
// replays the same dice. Every text shown goes through t() (i18n.js): messages are kept as
// functions of the state (S.statusMsg, S.botMsg, ...), so a change of language re-renders them.
'use strict';

const DIE_FACES = ['', '\u2680', '\u2681', '\u2682', '\u2683', '\u2684', '\u2685'];
const SVG_NS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

async function api(endpoint, params, record) {
  const url = '/api/' + endpoint + '?' + new URLSearchParams(params || {});
  const res = await fetch(url, record === undefined ? {} : { method: 'POST', body: record });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || 'HTTP ' + res.status);
  return body;
}

// A match request: the match record as the body, the new match state back (kept in S.match).
async function matchApi(endpoint, params) {
  S.match = await api(endpoint, params, S.match ? S.match.record : '');
  S.position = S.match.position;
  S.white = S.match.white;
  return S.match;
}

// ---- State ----
const S = {
  info: null,
  seed: 1,
  target: 3,
  match: null,         // the server's match state (/api/match...): score, record, ...
  white: 0,            // the player who has White in the current game (0 = you, 1 = the bot)
  position: null,      // the current position (as /api/position answers)
  dice: null,          // [d1, d2] of the turn being played
  played: [],          // steps the human has entered this turn ("24/18:6")
  steps: null,         // /api/steps answer
  selected: null,      // point the human picked up a checker from
  history: [],
  lastBotPaths: [],    // the bot's last move, drawn as arrows until the human moves
  phase: 'idle',       // your-roll | your-move | bot | game-over | match-over
  statusMsg: null,     // () => the status text in the current language
  botMsg: null,        // () => the bot's last reply
  anEvalMsg: null,     // () => the analysis panel's evaluation
  anMethodMsg: null,   // () => the analysis panel's method line
};

function sideOf(player) { return player === S.white ? 'white' : 'black'; }
function humanToMove() { return S.match && S.match.player_to_move === 0; }

// `msg`: a function returning the status text (called again when the language changes).
function setStatus(phase, msg) {
  S.phase = phase;
  S.statusMsg = msg;
  $('status').dataset.state = phase;
  $('status').textContent = msg();
}

// The texts made from the state, in the current language.
function renderTexts() {
  if (S.statusMsg) $('status').textContent = S.statusMsg();
  $('bot-reply').textContent = S.botMsg ? S.botMsg() : '';
  if (S.info) $('agent').textContent = t('playing', { agent: S.info.agent });
  $('an-eval-out').textContent = S.anEvalMsg ? S.anEvalMsg() : '';
  $('an-method').textContent = S.anMethodMsg ? S.anMethodMsg() : '';
}

function showError(e) { $('error').textContent = e ? String(e.message || e) : ''; }

// ---- Drawing the board (layout as `nardy show`: 13..24 on top, 12..1 below) ----
const W = 760, H = 420, M = 16, BAR = 24, TRAY = 64, PW = (W - 2 * M - BAR - TRAY) / 12;
const R = Math.min(PW / 2 - 2, 15), TRI_H = 170;

function pointGeometry(p) {
  const top = p >= 13;
  const c = top ? p - 13 : 12 - p;
  const x = M + c * PW + (c >= 6 ? BAR : 0);
  return { top, x, cx: x + PW / 2 };
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function drawBoard() {
  const svg = $('board');
  svg.replaceChildren();
  if (!S.position) return;
  const board = S.steps && S.phase === 'your-move' ? S.steps.board : S.position;
  el('rect', { x: M, y: M, width: W - 2 * M - TRAY, height: H - 2 * M, class: 'field' }, svg);
  el('rect', { x: M + 6 * PW, y: M, width: BAR, height: H - 2 * M, class: 'bar' }, svg);
  const next = S.phase === 'your-move' && S.steps ? S.steps.next : [];
  const sources = new Set(next.map((s) => s.from));
  const targets = new Set(next.filter((s) => s.from === S.selected).map((s) => s.to));
  for (let p = 1; p <= 24; ++p) {
    const g = pointGeometry(p);
    const cls = ['point'];
    if (S.selected === null ? sources.has(p) : sources.has(p) && p !== S.selected) cls.push('source');
    if (p === S.selected) cls.push('selected');
    if (targets.has(p)) cls.push('target');
    const grp = el('g', { class: cls.join(' '), 'data-point': p }, svg);
    const y0 = g.top ? M : H - M, y1 = g.top ? M + TRI_H : H - M - TRI_H;
    el('polygon', { points: `${g.x},${y0} ${g.x + PW},${y0} ${g.cx},${y1}`,
                    class: p % 2 ? 'tri-a' : 'tri-b' }, grp);
    el('rect', { x: g.x, y: g.top ? M : H / 2, width: PW, height: H / 2 - M, class: 'hit' }, grp);
    const label = el('text', { x: g.cx, y: g.top ? M - 4 : H - 4, class: 'num' }, grp);
    label.textContent = p;
    const n = board.points[p - 1];
    const colour = n > 0 ? 'w' : 'b';
    const shown = Math.min(Math.abs(n), 5);
    for (let i = 0; i < shown; ++i) {
      const cy = g.top ? M + R + 2 + i * 2 * R : H - M - R - 2 - i * 2 * R;
      el('circle', { cx: g.cx, cy, r: R, class: 'checker-' + colour }, grp);
      if (i === shown - 1 && Math.abs(n) > 5) {
        const c = el('text', { x: g.cx, y: cy, class: 'count count-' + colour }, grp);
        c.textContent = Math.abs(n);
      }
    }
  }
  // The tray: borne-off counts; a bearing-off target.
  const tx = W - M - TRAY + 8;
  const tray = el('g', { class: 'point' + (targets.has(0) ? ' target' : ''), 'data-point': 0 }, svg);
  el('rect', { x: tx, y: M, width: TRAY - 8, height: H - 2 * M, class: 'tray' }, tray);
  el('rect', { x: tx, y: M, width: TRAY - 8, height: H - 2 * M, class: 'hit' }, tray);
  const bt = el('text', { x: tx + (TRAY - 8) / 2, y: M + 20, class: 'tray-text' }, tray);
  bt.textContent = t('letter_black') + ' ' + board.off.black;
  const wt = el('text', { x: tx + (TRAY - 8) / 2, y: H - M - 10, class: 'tray-text' }, tray);
  wt.textContent = t('letter_white') + ' ' + board.off.white;
  const off = el('text', { x: tx + (TRAY - 8) / 2, y: H / 2, class: 'tray-text' }, tray);
  off.textContent = t('tray_off');
  drawArrows(svg, S.lastBotPaths || [], tx + (TRAY - 8) / 2);
}

// The bot's last move as arrows, one per checker path (from, to; to 0 = borne off).
function drawArrows(svg, paths, trayX) {
  if (!paths.length) return;
  const defs = el('defs', {}, svg);
  const marker = el('marker', { id: 'arrowhead', markerWidth: 8, markerHeight: 8, refX: 6,
                                refY: 4, orient: 'auto' }, defs);
  el('path', { d: 'M0,0 L8,4 L0,8 z', fill: '#1f6fd1' }, marker);
  // Arrows of one row are spread apart vertically so that they do not cover each other.
  const anchor = (p, i) => {
    if (p === 0) return [trayX, H / 2];
    const g = pointGeometry(p);
    const depth = TRI_H * 0.6 + 14 * i;
    return [g.cx, g.top ? M + depth : H - M - depth];
  };
  for (const [i, [from, to]] of paths.entries()) {
    const [x1, y1] = anchor(from, i), [x2, y2] = anchor(to, i);
    el('line', { x1, y1, x2, y2, stroke: '#1f6fd1', 'stroke-width': 3, 'stroke-opacity': 0.8,
                 'marker-end': 'url(#arrowhead)', 'pointer-events': 'none', class: 'bot-arrow' }, svg);
  }
}

function render() {
  drawBoard();
  const score = S.match ? S.match.score : [0, 0];
  $('score').textContent = `${score[0]} \u2013 ${score[1]}`;
  $('score-note').textContent = t('score_note', { target: S.target });
  $('game-no').textContent = S.match ? S.match.game : 1;
  $('download').disabled = !S.match;
  if (S.position) {
    const you = sideOf(0), bot = sideOf(1);
    $('pips').textContent =
        t('pips', { who: t('you'), side: tSide(you), pips: S.position.pips[you], off: S.position.off[you] }) +
        ' \u00b7 ' +
        t('pips', { who: t('bot'), side: tSide(bot), pips: S.position.pips[bot], off: S.position.off[bot] });
  }
  const left = S.steps ? S.steps.dice_left.slice() : [];
  $('dice').replaceChildren();
  if (S.dice) {
    const all = S.dice[0] === S.dice[1] ? [S.dice[0], S.dice[0], S.dice[0], S.dice[0]] : S.dice;
    for (const d of all) {
      const span = document.createElement('span');
      span.textContent = DIE_FACES[d];
      span.dataset.die = d;
      const k = left.indexOf(d);
      if (S.phase === 'your-move' && k < 0) span.className = 'used';
      else if (k >= 0) left.splice(k, 1);
      $('dice').appendChild(span);
    }
  }
  const moving = S.phase === 'your-move';
  $('roll').disabled = S.phase !== 'your-roll';
  $('undo').disabled = !moving || S.played.length === 0;
  $('confirm').disabled = !(moving && S.steps && S.steps.complete);
  $('legal-list').disabled = $('play-listed').disabled = !moving;
  $('next-game').hidden = S.phase !== 'game-over';
  $('history').replaceChildren(...S.history.map((h) => {
    const li = document.createElement('li');
    li.textContent = `${t('letter_' + h.side)} ${h.dice.join('-')} ${tMove(h.notation)}`;
    return li;
  }));
}

// ---- Playing ----
async function newMatch() {
  showError(null);
  S.seed = Number($('seed').value || 1);
  S.target = Number($('target').value);
  S.match = null;
  await matchApi('match', { to: S.target, white: $('colour').value === 'white' ? 0 : 1 });
  await newGame();
}

async function newGame() {
  S.history = [];
  S.dice = null;
  S.steps = null;
  S.played = [];
  S.selected = null;
  S.botMsg = null;
  $('bot-reply').textContent = '';
  S.lastBotPaths = [];
  await advance();
}

// The dice of the coming turn: turn T of game G (from 1) is turn (G - 1) * 1000 + T of the seed.
async function roll() {
  const turn = (S.match.game - 1) * 1000 + S.match.turns;
  const r = await api('roll', { pos: S.position.pos, seed: S.seed, turn });
  return r.dice;
}

function record(played) {
  S.history.push({ side: played.side, dice: played.dice, notation: played.notation });
}

// Plays the bot's turns until it is the human's turn or the game is over.
async function advance() {
  while (!S.position.outcome && !humanToMove()) {
    setStatus('bot', () => t('bot_thinking'));
    render();
    const dice = await roll();
    const seed = S.seed * 7919 + (S.match.game - 1) * 1000 + S.match.turns;
    const m = (await matchApi('match/agent', { dice: dice.join(','), seed })).played;
    S.dice = dice;
    record(m);
    const reply = { side: m.side, dice: dice.join('-'), move: m.notation };
    if (m.mwc_after !== undefined) {
      reply.equity = m.equity_after.toFixed(3);
      reply.mwc = (100 * m.mwc_after).toFixed(1);
    }
    S.botMsg = () => t(reply.mwc === undefined ? 'bot_played' : 'bot_played_mwc',
                       { ...reply, side: tSide(reply.side), move: tMove(reply.move) });
    $('bot-reply').textContent = S.botMsg();
    S.lastBotPaths = m.paths;
  }
  if (S.match.game_over) return endGame();
  S.steps = null;
  S.played = [];
  S.selected = null;
  const side = S.position.side;
  setStatus('your-roll', () => t('your_roll', { side: tSide(side) }));
  render();
}

async function startHumanTurn() {
  S.dice = await roll();
  S.played = [];
  S.selected = null;
  await refreshSteps();
  const legal = await api('legal', { pos: S.position.pos, dice: S.dice.join(',') });
  $('legal-list').replaceChildren(...legal.moves.map((m) => {
    const o = document.createElement('option');
    o.value = m.pos;
    o.textContent = m.notation;
    return o;
  }));
}

async function refreshSteps() {
  S.steps = await api('steps', { pos: S.position.pos, dice: S.dice.join(','),
                                 played: S.played.join(',') });
  const done = S.steps.complete, side = S.position.side, dice = S.dice.join('-');
  const played = S.played.length;
  setStatus('your-move', () => (done
      ? (played ? t('your_move_done', { move: done.notation }) : t('no_legal_move'))
      : t('your_move', { side: tSide(side), dice })));
  render();
}

async function clickPoint(p) {
  if (S.phase !== 'your-move' || !S.steps) return;
  const next = S.steps.next;
  if (S.selected !== null && p !== S.selected) {
    const step = next.filter((s) => s.from === S.selected && s.to === p)
                     .sort((a, b) => a.die - b.die)[0];
    if (step) {
      S.played.push(`${step.from}/${step.to === 0 ? 'off' : step.to}:${step.die}`);
      S.selected = null;
      return refreshSteps();
    }
  }
  S.selected = next.some((s) => s.from === p) && p !== S.selected ? p : null;
  render();
}

async function commitHumanMove(result) {
  if (typeof tutorCheck === 'function' && !(await tutorCheck(result))) return;  // review.js
  if (typeof tutorClear === 'function') tutorClear();
  S.lastBotPaths = [];
  const m = await matchApi('match/play', { dice: S.dice.join(','), move: result.notation });
  record(m.played);
  S.steps = null;
  $('legal-list').replaceChildren();
  await advance();
}

// The end of a game as the server scored it (S.match): outcome, score, match over or who is
// White next.
async function endGame() {
  const m = S.match, o = m.game_outcome;
  const result = !o.winner ? 'draw_game'
                           : `${o.player === 0 ? 'you_win' : 'bot_wins'}_${o.points === 2 ? 'mars' : 'oin'}`;
  S.steps = null;
  if (m.match_over) {
    const over = m.winner === 0 ? 'match_over_you' : 'match_over_bot';
    const score = `${m.score[0]}\u2013${m.score[1]}`;
    setStatus('match-over', () => `${t(result)} ${t(over, { score })}`);
  } else {
    const next = m.next_white === 0 ? 'next_game_white' : 'next_game_black';
    setStatus('game-over', () => `${t(result)} ${t(next)}`);
  }
  $('status').dataset.outcome = o.text;
  $('status').dataset.finalPos = S.position.pos;
  render();
}

// ---- Analysis panel ----
function fmt(x) { return typeof x === 'number' ? x.toFixed(3) : ''; }

async function analysis(kind) {
  $('an-error').textContent = '';
  const pos = $('an-pos').value.trim();
  try {
    const show = await fetch('/api/show?' + new URLSearchParams({ pos }));
    if (!show.ok) throw new Error((await show.json()).error);
    $('an-board').innerHTML = await show.text();
    localizeBoards($('an-board'));  // i18n.js
    const trials = $('an-trials').value;
    const extra = S.info.evaluator ? {} : { trials };
    if (kind === 'eval') {
      const e = await api('eval', { pos, ...extra });
      S.anEvalMsg = () => t('eval_out', {
        method: tMethod(e.method),
        equity: fmt(e.equity) + (e.equity_se ? ` \u00b1 ${fmt(e.equity_se)}` : ''),
        win: fmt(e.win), win_mars: fmt(e.win_mars), lose_mars: fmt(e.lose_mars), draw: fmt(e.draw),
        side: tSide(e.position.side) });
      $('an-eval-out').textContent = S.anEvalMsg();
      return;
    }
    const a = await api('analyze', { pos, dice: $('an-dice').value, ...extra });
    S.anMethodMsg = () => t('analyze_method', { method: tMethod(a.method), agent: a.agent });
    $('an-method').textContent = S.anMethodMsg();
    $('an-table').hidden = false;
    // The searched candidates, then a line, then those the search filtered out at depth 0.
    const firstFiltered = a.moves.findIndex(m => m.filtered);
    $('an-table').tBodies[0].replaceChildren(...a.moves.flatMap((m, i) => {
      const tr = document.createElement('tr');
      if (m.agent_choice) tr.className = 'choice';
      const equity = fmt(m.equity) + (m.equity_se ? ` \u00b1 ${fmt(m.equity_se)}` : '');
      for (const v of [i + 1, m.notation, equity, fmt(m.win), fmt(m.win_mars),
                       fmt(m.lose_mars), fmt(m.draw)]) {
        const td = document.createElement('td');
        td.textContent = v;
        tr.appendChild(td);
      }
      if (i !== firstFiltered) return [tr];
      const sep = document.createElement('tr');
      sep.className = 'filtered';
      const td = document.createElement('td');
      td.colSpan = 7;
      td.dataset.i18n = 'an_filtered';
      td.textContent = t('an_filtered');
      sep.appendChild(td);
      return [sep, tr];
    }));
  } catch (e) {
    $('an-error').textContent = e.message;
  }
}

// ---- Wiring ----
// Runs an action, shows its error, and marks the page busy meanwhile (body[data-busy]).
let busy = 0;
function guard(f) {
  return async (...args) => {
    showError(null);
    document.body.dataset.busy = String(++busy);
    try { await f(...args); } catch (e) { showError(e); }
    if (--busy === 0) delete document.body.dataset.busy;
  };
}

async function main() {
  initLanguageSwitch();  // i18n.js
  setStatus('idle', () => t('loading'));
  onLanguageChange(() => { render(); renderTexts(); });
  S.info = await api('info');
  $('agent').textContent = t('playing', { agent: S.info.agent });
  $('rules').textContent = Object.entries(S.info.rules).map(([k, v]) => `${k}=${v}`).join(', ');
  const params = new URLSearchParams(location.search);
  $('seed').value = params.get('seed') || String(Math.floor(Math.random() * 1e6));
  if (params.get('to')) $('target').value = params.get('to');
  if (params.get('colour')) $('colour').value = params.get('colour');
  $('an-pos').value = S.info.start.pos;
  $('match-form').addEventListener('submit', (e) => { e.preventDefault(); guard(newMatch)(); });
  $('roll').addEventListener('click', guard(startHumanTurn));
  $('undo').addEventListener('click', guard(async () => { S.played.pop(); await refreshSteps(); }));
  $('confirm').addEventListener('click', guard(() => commitHumanMove(S.steps.complete)));
  $('play-listed').addEventListener('click', guard(() => {
    const o = $('legal-list').selectedOptions[0];
    return o && commitHumanMove({ pos: o.value, notation: o.textContent });
  }));
  $('next-game').addEventListener('click', guard(async () => {
    await matchApi('match/next');
    await newGame();
  }));
  $('download').addEventListener('click', () => {
    const a = $('download-link');
    URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([S.match.record], { type: 'text/plain' }));
    a.click();
  });
  $('board').addEventListener('click', (e) => {
    const g = e.target.closest('[data-point]');
    if (g) guard(clickPoint)(Number(g.dataset.point));
  });
  $('an-current').addEventListener('click', () => { if (S.position) $('an-pos').value = S.position.pos; });
  $('an-run').addEventListener('click', guard(() => analysis('analyze')));
  $('an-eval').addEventListener('click', guard(() => analysis('eval')));
  await newMatch();
}

guard(main)();
