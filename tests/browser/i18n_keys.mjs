// The web board's string tables (selfplay/protocol/web/i18n.js): every language has every key
// of English and no other, each text with the same "{name}" placeholders as the English one,
// and every key the page's files use exists. No browser needed.
//
//   node tests/browser/i18n_keys.mjs
//
// board_languages.mjs runs the same check first (checkI18n), so `make test-browser` covers it.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../selfplay/protocol/web');

// The I18N table of i18n.js, evaluated on its own (it only defines things at load).
export function loadI18n() {
  const context = vm.createContext({});
  vm.runInContext(fs.readFileSync(path.join(WEB, 'i18n.js'), 'utf8') + '\n;globalThis.I18N = I18N;',
                  context);
  return context.I18N;
}

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

// Throws (assert) on the first problem; returns the languages and the number of keys.
export function checkI18n() {
  const I18N = loadI18n();
  const codes = Object.keys(I18N);
  assert.deepEqual(codes.slice(0, 5), ['en', 'ru', 'uk', 'az', 'tr'], 'languages');
  const en = I18N.en, keys = Object.keys(en).sort();
  for (const code of codes) {
    const table = I18N[code];
    const missing = keys.filter((k) => !(k in table));
    const extra = Object.keys(table).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${code} lacks keys`);
    assert.deepEqual(extra, [], `${code} has keys English has not`);
    for (const k of keys) {
      assert.equal(typeof table[k], 'string', `${code}.${k}`);
      assert.deepEqual(placeholders(table[k]), placeholders(en[k]),
                       `${code}.${k}: placeholders of "${table[k]}" against "${en[k]}"`);
      // Only the match-length label's unit may be empty (Russian/Ukrainian "Матч до [3]").
      if (k !== 'match_points') assert.ok(table[k].trim() !== '', `${code}.${k} is empty`);
    }
    if (code !== 'en') {
      // Translated, not copied: most texts differ from English.
      const same = keys.filter((k) => table[k] === en[k] && /[a-z]{4}/i.test(en[k]));
      assert.ok(same.length <= 3, `${code}: ${same.length} texts are still English: ${same}`);
    }
  }
  // Every key the page uses: data-i18n* attributes of index.html and t('...') calls of the
  // scripts (keys built at run time: side_, letter_, mark_, band_, phase_ are checked above by
  // name, the JSON's names below).
  const html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
  const used = new Set([...html.matchAll(/data-i18n(?:-title|-aria)?="(\w+)"/g)].map((m) => m[1]));
  for (const file of ['board.js', 'review.js', 'i18n.js']) {
    const js = fs.readFileSync(path.join(WEB, file), 'utf8');
    for (const m of js.matchAll(/\bt\('(\w+)'[,)]/g)) used.add(m[1]);
  }
  for (const side of ['white', 'black']) used.add('side_' + side).add('letter_' + side);
  for (const mark of ['doubtful', 'bad', 'very_bad']) used.add('mark_' + mark);
  for (const band of ['supernatural', 'world_class', 'expert', 'advanced', 'intermediate',
                      'casual', 'beginner', 'awful'])
    used.add('band_' + band);
  for (const phase of ['opening', 'contact', 'race', 'bearoff']) used.add('phase_' + phase);
  for (const r of ['you_win_oin', 'you_win_mars', 'bot_wins_oin', 'bot_wins_mars'])
    used.add(r);
  const undefinedKeys = [...used].filter((k) => !(k in en));
  assert.deepEqual(undefinedKeys, [], 'keys used by the page but not in the English table');
  // The game's own words where the issue names them.
  assert.match(I18N.ru.you_win_oin, /ойн/);
  assert.match(I18N.ru.you_win_mars, /марс/);
  assert.match(I18N.ru.rules_hint, /голов/);
  assert.match(I18N.ru.rules_hint, /забор/);
  assert.match(I18N.ru.rules_hint, /в дом/);
  assert.match(I18N.uk.you_win_oin, /ойн/);
  assert.match(I18N.az.you_win_mars, /mars/);
  assert.match(I18N.az.rules_hint, /Başdan/);
  assert.match(I18N.az.rules_hint, /evə/);
  assert.match(I18N.tr.you_win_mars, /[Mm]ars/);
  assert.match(I18N.tr.page_title, /uzun tavla/);
  return { codes, keys: keys.length };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { codes, keys } = checkI18n();
  console.log(`i18n.js: ${codes.length} languages (${codes.join(', ')}), ${keys} keys each, ` +
              'placeholders alike, every key the page uses defined');
}
