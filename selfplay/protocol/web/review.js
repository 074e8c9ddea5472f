// The web board's tutor and review view (docs/review.md), on top of board.js.
//
// Tutor: with the switch on, a move you confirm is first analysed (GET /api/analyze, the
// server's agent); if it loses more than the threshold against the best move, it is held back
// with the best move and the loss: "Keep my move" plays it, or enter another move.
//
// Review: POST /api/review with the match just played (or a record file: nardy records or .mat)
// answers the JSON of `nardy review --json`; the view shows the per-player summary, an equity
// graph (click a turn to jump to it), the turns with the marked ones highlighted, and the board
// of the selected turn twice: the move played and the best move, drawn as arrows. Texts come
// from i18n.js; the JSON's English names (marks, bands, phases, sides) are translated here.
'use strict';

const RV = { review: null, turns: [], at: 0, pending: null, tutorMsg: null };

// ---- Tutor ----
// True when `result` may be played now; false when the tutor holds it back.
async function tutorCheck(result) {
  if (!$('tutor').checked) return true;
  if (RV.pending && RV.pending.pos === result.pos) { tutorClear(); return true; }
  const extra = S.info.evaluator ? {} : { trials: $('an-trials').value };
  const a = await api('analyze', { pos: S.position.pos, dice: S.dice.join(','), ...extra });
  if (a.moves.length < 2) return true;
  const mine = a.moves.find((m) => m.position === result.pos);
  const best = a.moves[0], threshold = Number($('tutor-threshold').value || 0.04);
  if (!mine || !(best.equity - mine.equity > threshold)) return true;
  RV.pending = result;
  const loss = (best.equity - mine.equity).toFixed(3);
  RV.tutorMsg = () => t('tutor_warning', { move: mine.notation, loss, best: best.notation,
                                          method: tMethod(a.method) });
  $('tutor-out').textContent = RV.tutorMsg();
  $('tutor-keep').hidden = false;
  return false;
}

function tutorClear() {
  RV.pending = null;
  RV.tutorMsg = null;
  $('tutor-out').textContent = '';
  $('tutor-keep').hidden = true;
}

// ---- Review ----
async function runReview(text) {
  $('rv-error').textContent = '';
  if (!text || !text.trim()) throw new Error(t('nothing_to_review'));
  const params = {};
  if (S.info.evaluator && $('rv-ply').value) params.ply = $('rv-ply').value;
  RV.review = await api('review', params, text);
  RV.turns = RV.review.games.flatMap((g) => g.turns.map((t) => ({ ...t, game: g.game })));
  RV.at = Math.max(0, RV.turns.findIndex((t) => t.mark));
  $('rv-body').hidden = false;
  drawSummary();
  drawGraph();
  drawTurns();
  await showTurn(RV.at);
}

function cell(tr, text, tag = 'td') {
  const td = document.createElement(tag);
  td.textContent = text;
  tr.appendChild(td);
}

function drawSummary() {
  const r = RV.review, n = (x, d = 1) => (x === null || x === undefined ? '\u2013' : x.toFixed(d));
  const rows = [
    [t('rv_decisions'), (p) => p.decisions], [t('rv_total_error'), (p) => n(p.total_error, 3)],
    [t('rv_error_rate'), (p) => n(p.error_rate_millipoints)],
    [t('rv_rating'), (p) => `${n(p.rating)} ${tBand(p.rating_band)}`],
    [['doubtful', 'bad', 'very bad'].map(tMark).join(' / '),
     (p) => `${p.marks.doubtful} / ${p.marks.bad} / ${p.marks.very_bad}`],
    [t('rv_luck'), (p) => n(p.total_luck, 3)], [t('rv_result'), (p) => p.result],
    [t('rv_adjusted'), (p) => n(p.luck_adjusted_result, 3)]];
  const table = $('rv-summary');
  table.replaceChildren();
  const head = document.createElement('tr');
  for (const h of ['', playerName(0), playerName(1)]) cell(head, h, 'th');
  table.appendChild(head);
  for (const [name, f] of rows) {
    const tr = document.createElement('tr');
    cell(tr, name);
    for (const p of r.players) cell(tr, String(f(p)));
    table.appendChild(tr);
  }
  $('rv-method').textContent = `${r.agent}: ${tMethod(r.method)}`;
}

const MARK_COLOURS = { doubtful: '#e0a000', bad: '#e06000', 'very bad': '#c00000' };

function drawGraph() {
  const svg = $('rv-graph'), w = 600, h = 160, n = Math.max(1, RV.turns.length - 1);
  svg.replaceChildren();
  const x = (i) => 10 + (w - 20) * i / n, y = (e) => 10 + (h - 20) * (2 - Math.max(-2, Math.min(2, e))) / 4;
  el('line', { x1: 10, x2: w - 10, y1: y(0), y2: y(0), stroke: '#999' }, svg);
  el('polyline', { fill: 'none', stroke: '#2060a0', 'stroke-width': 1.5,
                   points: RV.turns.map((t, i) => `${x(i)},${y(t.equity_player0)}`).join(' ') }, svg);
  RV.turns.forEach((t, i) => {
    const c = el('circle', { cx: x(i), cy: y(t.equity_player0), r: t.mark ? 5 : 3,
                             fill: MARK_COLOURS[t.mark] || '#2060a0', 'data-turn': i,
                             class: i === RV.at ? 'rv-at' : '' }, svg);
    c.addEventListener('click', guard(() => showTurn(i)));
  });
}

function drawTurns() {
  const body = $('rv-turns').tBodies[0];
  body.replaceChildren(...RV.turns.map((t, i) => {
    const tr = document.createElement('tr');
    if (t.mark) tr.className = 'mark-' + t.mark.replace(' ', '-');
    for (const v of [`${t.game}.${t.turn}`, `${i18nLetter(t.side)} ${playerName(t.player)}`,
                     t.dice, tMove(t.played.notation), tMark(t.mark),
                     t.decision ? t.error.toFixed(3) : i18nForced(),
                     t.played.rank === 1 ? '' : t.best.notation,
                     t.luck === null ? '' : t.luck.toFixed(3)])
      cell(tr, v);
    tr.addEventListener('click', guard(() => showTurn(i)));
    return tr;
  }));
}

async function boardSvg(pos, move, dice) {
  const res = await fetch('/api/show?' + new URLSearchParams({ pos, move, dice, width: 380 }));
  if (!res.ok) throw new Error((await res.json()).error);
  return res.text();
}

async function showTurn(i) {
  if (!RV.turns.length) return;
  RV.at = Math.max(0, Math.min(RV.turns.length - 1, i));
  const t = RV.turns[RV.at];
  for (const c of $('rv-graph').querySelectorAll('circle'))
    c.setAttribute('class', Number(c.dataset.turn) === RV.at ? 'rv-at' : '');
  for (const [k, tr] of [...$('rv-turns').tBodies[0].rows].entries()) tr.classList.toggle('at', k === RV.at);
  turnTexts();
  const dice = t.dice.replace('-', ',');
  $('rv-played').innerHTML = await boardSvg(t.position, t.played.notation, dice);
  $('rv-best').innerHTML = t.played.rank === 1 ? '<p class="muted" id="rv-best-played"></p>'
                                               : await boardSvg(t.position, t.best.notation, dice);
  localizeBoards($('rv-played'));  // i18n.js
  localizeBoards($('rv-best'));
  turnTexts();
}

// The selected turn's texts: its line and the two captions.
function turnTexts() {
  const tr = RV.turns[RV.at];
  if (!tr) return;
  $('rv-turn').textContent =
      t('rv_turn', { game: tr.game, turn: tr.turn, name: playerName(tr.player),
                     side: tSide(tr.side), phase: tPhase(tr.phase), dice: tr.dice }) +
      (tr.decision ? t('rv_turn_error', { error: tr.error.toFixed(3) }) : t('rv_turn_forced')) +
      (tr.mark ? ` (${tMark(tr.mark)})` : '');
  const bestPlayed = document.getElementById('rv-best-played');
  if (bestPlayed) bestPlayed.textContent = t('best_was_played');
  $('rv-played-caption').textContent = t('rv_played', { move: tMove(tr.played.notation) });
  $('rv-best-caption').textContent = t('rv_best', { move: tMove(tr.best.notation) });
}

function i18nLetter(side) { return t('letter_' + side); }
// A player's name in the review: the board's own player, "you" in its match records, in the
// current language.
function playerName(player) {
  const name = RV.review.names[player];
  return name === 'you' ? t('you') : name;
}
function i18nForced() { return t('forced'); }

// A change of language: the tutor's warning and the review view again, the same turn selected.
function reviewTexts() {
  $('tutor-out').textContent = RV.tutorMsg ? RV.tutorMsg() : '';
  if (!RV.review) return;
  drawSummary();
  drawTurns();
  for (const [k, tr] of [...$('rv-turns').tBodies[0].rows].entries()) tr.classList.toggle('at', k === RV.at);
  turnTexts();
}

function wireReview() {
  onLanguageChange(reviewTexts);  // i18n.js
  $('tutor-keep').addEventListener('click', guard(() => commitHumanMove(RV.pending)));
  $('rv-match').addEventListener('click', guard(() => runReview(S.match && S.match.record)));
  $('rv-file').addEventListener('change', guard(async () => {
    const f = $('rv-file').files[0];
    if (f) await runReview(await f.text());
  }));
  $('rv-prev').addEventListener('click', guard(() => showTurn(RV.at - 1)));
  $('rv-next').addEventListener('click', guard(() => showTurn(RV.at + 1)));
  $('rv-next-mark').addEventListener('click', guard(() => {
    const k = RV.turns.findIndex((t, j) => j > RV.at && t.mark);
    return showTurn(k < 0 ? RV.at : k);
  }));
}

wireReview();
