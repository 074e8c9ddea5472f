// The web board in its players' languages: one table of strings per language, and the language
// switch. Loaded before board.js and review.js, which show every text through t(key, params).
//
// The language is, in order: the URL's ?lang=CODE, the last one chosen with the switch
// (localStorage "nardy.lang"), the first of the browser's languages (navigator.languages) that
// the board has, else English. Choosing another with the switch stores it, puts it in the URL
// (history.replaceState, so a reload or a shared link keeps it) and re-renders every text in
// place: the game in progress is kept.
//
// English is the reference: every language has exactly its keys, each text with the same
// "{name}" placeholders (tests/browser/i18n_keys.mjs). The game's own words: Russian and
// Ukrainian ойн / марс, голова, дом / дім, блок (забор / паркан), бросок / кидок, выбрасывание /
// викидання; Azerbaijani (uzun nərd) oyun / mars, baş, ev, zər, daş; Turkish (uzun tavla, Rus
// tavlası) oyun / mars, baş, ev, zar, pul, toplama. Move notation, numbers and the rules'
// key=value text are the same in every language; the server's error messages stay in English.
'use strict';

const I18N = {
  en: {
    language: 'English',
    page_title: 'nardy \u2014 Long Nardy board',
    lang_label: 'Language',
    playing: 'playing {agent}',
    match_to: 'Match to',
    match_points: 'points',
    you_are: 'You are',
    colour_white: 'White in game 1',
    colour_black: 'Black in game 1',
    seed: 'Seed',
    new_match: 'New match',
    score_label: 'Score',
    score_note: '(you \u2013 bot, to {target})',
    game_label: 'Game',
    board_aria: 'board',
    dice_aria: 'dice',
    loading: 'Loading\u2026',
    roll: 'Roll dice',
    undo: 'Undo step',
    confirm: 'Confirm move',
    next_game: 'Next game',
    download: 'Download match record',
    download_title: 'The match record (core/match.h), as the server keeps it',
    legal_aria: 'legal moves',
    play_listed: 'Play listed move',
    tutor_label: 'Tutor: warn when a move loses more than',
    tutor_keep: 'Keep my move',
    history: 'Moves of this game',
    analysis: 'Analysis',
    an_pos: 'Position (POS text or ID)',
    an_dice: 'Dice',
    an_trials: 'Trials',
    an_current: 'Current position',
    an_run: 'Analyze',
    an_eval: 'Evaluate',
    an_filtered: 'Not searched: filtered out by their depth-0 value, ranked by it',
    col_move: 'move',
    col_equity: 'equity',
    col_win: 'win',
    col_win_mars: 'win mars',
    col_lose_mars: 'lose mars',
    col_draw: 'draw',
    review: 'Review',
    rv_match: 'Review this match',
    rv_file: 'or a record file (nardy or .mat)',
    rv_ply: 'Ply',
    rv_ply_own: "agent's own",
    rv_graph_aria: 'equity of the first player after each turn',
    rv_prev: 'Previous turn',
    rv_next: 'Next turn',
    rv_next_mark: 'Next marked move',
    col_turn: 'turn',
    col_player: 'player',
    col_roll: 'roll',
    col_played: 'played',
    col_mark: 'mark',
    col_error: 'error',
    col_best: 'best',
    col_luck: 'luck',
    rules_label: 'Rules:',
    footer_help: 'Click one of your checkers, then a highlighted point (or the tray to bear off); ' +
        'one die per click. The server (<code>nardy serve</code>) keeps the score: this page ' +
        'sends it the match record with every move (<code>/api/match/\u2026</code>).',
    rules_hint: 'Long Nardy: both sides move the same way round and nothing is hit; a single ' +
        'checker holds a point. One checker leaves the head per turn (two on the first turn ' +
        'with 6-6, 4-4 or 3-3). No block of six points in a row unless an opponent\u2019s ' +
        'checker is already past it. Bring all 15 checkers home and bear them off: the winner ' +
        'scores an oin (1 point), or a mars (2 points) when the loser has borne off none.',
    side_white: 'white',
    side_black: 'black',
    letter_white: 'W',
    letter_black: 'B',
    tray_off: 'off',
    you: 'You',
    bot: 'Bot',
    pips: '{who} ({side}) pips {pips}, off {off}',
    bot_thinking: 'The bot is thinking\u2026',
    bot_played: 'Bot ({side}) rolled {dice} and played {move}',
    bot_played_mwc: 'Bot ({side}) rolled {dice} and played {move} (equity {equity}, match ' +
        'winning chance {mwc}%)',
    your_roll: 'Your turn ({side}): roll the dice',
    your_move: 'Your move ({side}), dice {dice}: click a checker',
    your_move_done: 'Your move: {move} \u2014 confirm it',
    no_legal_move: 'No legal move: confirm to pass',
    move_pass: 'pass',
    draw_game: 'Draw: half a point each.',
    you_win_oin: 'You win an oin (1 point).',
    you_win_mars: 'You win a mars (2 points).',
    bot_wins_oin: 'The bot wins an oin (1 point).',
    bot_wins_mars: 'The bot wins a mars (2 points).',
    match_over_you: 'Match over: you win {score}.',
    match_over_bot: 'Match over: the bot wins {score}.',
    next_game_white: 'Next game: you are White.',
    next_game_black: 'Next game: you are Black.',
    eval_out: '{method}: equity {equity} \u00b7 win {win} \u00b7 win mars {win_mars} \u00b7 ' +
        'lose mars {lose_mars} \u00b7 draw {draw} (side to move: {side})',
    analyze_method: "{method}, agent {agent}; highlighted: the agent's choice",
    method_net_eval: '{ply}-ply net evaluation',
    method_search: '{ply}-ply expectimax search',
    method_rollouts: 'rollouts ({trials} trials per move, stratified dice)',
    method_net: 'net',
    method_rollouts_eval: 'rollouts ({trials} trials)',
    tutor_warning: 'Tutor: {move} loses {loss} points of equity against the best move {best} ' +
        '({method}). Keep it, or enter another move.',
    nothing_to_review: 'nothing to review: play a move or load a record file',
    rv_decisions: 'decisions',
    rv_total_error: 'total error',
    rv_error_rate: 'error rate (mp/decision)',
    rv_rating: 'rating',
    rv_luck: 'luck',
    rv_result: 'result',
    rv_adjusted: 'luck-adjusted result',
    mark_doubtful: 'doubtful',
    mark_bad: 'bad',
    mark_very_bad: 'very bad',
    band_supernatural: 'supernatural',
    band_world_class: 'world class',
    band_expert: 'expert',
    band_advanced: 'advanced',
    band_intermediate: 'intermediate',
    band_casual: 'casual',
    band_beginner: 'beginner',
    band_awful: 'awful',
    phase_opening: 'opening',
    phase_contact: 'contact',
    phase_race: 'race',
    phase_bearoff: 'bearoff',
    forced: 'forced',
    rv_turn: 'Game {game}, turn {turn}: {name} ({side}, {phase}) rolled {dice}',
    rv_turn_error: '; error {error}',
    rv_turn_forced: '; forced',
    best_was_played: 'the best move was played',
    rv_played: 'played {move}',
    rv_best: 'best {move}',
    svg_caption: 'White: pips {wp}, off {wo}, head {wh}    ' +
        'Black: pips {bp}, off {bo}, head {bh}    {to_move}',
    svg_white_to_move: 'White to move',
    svg_black_to_move: 'Black to move',
  },

  ru: {
    language: 'Русский',
    page_title: 'nardy \u2014 длинные нарды',
    lang_label: 'Язык',
    playing: 'соперник: {agent}',
    match_to: 'Матч до',
    match_points: '',
    you_are: 'Вы играете',
    colour_white: 'белыми в 1-й партии',
    colour_black: 'чёрными в 1-й партии',
    seed: 'Зерно',
    new_match: 'Новый матч',
    score_label: 'Счёт',
    score_note: '(вы \u2013 бот, до {target})',
    game_label: 'Партия',
    board_aria: 'доска',
    dice_aria: 'кубики',
    loading: 'Загрузка\u2026',
    roll: 'Бросить кубики',
    undo: 'Отменить шаг',
    confirm: 'Подтвердить ход',
    next_game: 'Следующая партия',
    download: 'Скачать запись матча',
    download_title: 'Запись матча (core/match.h), как её хранит сервер',
    legal_aria: 'возможные ходы',
    play_listed: 'Сыграть ход из списка',
    tutor_label: 'Тренер: предупреждать, если ход теряет больше',
    tutor_keep: 'Оставить мой ход',
    history: 'Ходы этой партии',
    analysis: 'Анализ позиции',
    an_pos: 'Позиция (текст POS или ID)',
    an_dice: 'Кубики',
    an_trials: 'Роллауты',
    an_current: 'Текущая позиция',
    an_run: 'Анализировать',
    an_eval: 'Оценить',
    an_filtered: 'Не просчитаны: отсеяны по оценке на глубине 0 и упорядочены по ней',
    col_move: 'ход',
    col_equity: 'эквити',
    col_win: 'победа',
    col_win_mars: 'победа марсом',
    col_lose_mars: 'поражение марсом',
    col_draw: 'ничья',
    review: 'Разбор партии',
    rv_match: 'Разобрать этот матч',
    rv_file: 'или файл записи (nardy или .mat)',
    rv_ply: 'Глубина',
    rv_ply_own: 'как у агента',
    rv_graph_aria: 'эквити первого игрока после каждого хода',
    rv_prev: 'Предыдущий ход',
    rv_next: 'Следующий ход',
    rv_next_mark: 'Следующий отмеченный ход',
    col_turn: 'ход',
    col_player: 'игрок',
    col_roll: 'бросок',
    col_played: 'сыграно',
    col_mark: 'отметка',
    col_error: 'ошибка',
    col_best: 'лучший ход',
    col_luck: 'удача',
    rules_label: 'Правила:',
    footer_help: 'Щёлкните по своей шашке, затем по подсвеченному пункту (или по лотку, чтобы ' +
        'выбросить шашку); один кубик за щелчок. Счёт ведёт сервер (<code>nardy serve</code>): ' +
        'страница отправляет ему запись матча с каждым ходом (<code>/api/match/\u2026</code>).',
    rules_hint: 'Длинные нарды: обе стороны ходят в одном направлении и не бьют шашки; одна ' +
        'шашка занимает пункт целиком. С головы за ход снимается одна шашка (на первом ходу ' +
        'при 6-6, 4-4 или 3-3 \u2014 две). Нельзя ставить блок (забор) из шести пунктов подряд, ' +
        'если впереди него нет ни одной шашки соперника. Приведите все 15 шашек в дом и ' +
        'выбросите их: победа \u2014 ойн (1 очко) или марс (2 очка), если соперник не выбросил ' +
        'ни одной шашки.',
    side_white: 'белые',
    side_black: 'чёрные',
    letter_white: 'Б',
    letter_black: 'Ч',
    tray_off: 'выброс',
    you: 'Вы',
    bot: 'Бот',
    pips: '{who} ({side}): пипсы {pips}, выброшено {off}',
    bot_thinking: 'Бот думает\u2026',
    bot_played: 'Боту ({side}) выпало {dice}, он сыграл {move}',
    bot_played_mwc: 'Боту ({side}) выпало {dice}, он сыграл {move} (эквити {equity}, шансы ' +
        'на матч {mwc}%)',
    your_roll: 'Ваш ход ({side}): бросьте кубики',
    your_move: 'Ваш ход ({side}), бросок {dice}: выберите шашку',
    your_move_done: 'Ваш ход: {move} \u2014 подтвердите его',
    no_legal_move: 'Ходов нет: подтвердите пропуск хода',
    move_pass: 'пропуск',
    draw_game: 'Ничья: по пол-очка каждому.',
    you_win_oin: 'Вы выиграли ойн (1 очко).',
    you_win_mars: 'Вы выиграли марс (2 очка).',
    bot_wins_oin: 'Бот выиграл ойн (1 очко).',
    bot_wins_mars: 'Бот выиграл марс (2 очка).',
    match_over_you: 'Матч окончен: вы победили со счётом {score}.',
    match_over_bot: 'Матч окончен: бот победил со счётом {score}.',
    next_game_white: 'Следующая партия: вы играете белыми.',
    next_game_black: 'Следующая партия: вы играете чёрными.',
    eval_out: '{method}: эквити {equity} \u00b7 победа {win} \u00b7 победа марсом {win_mars} ' +
        '\u00b7 поражение марсом {lose_mars} \u00b7 ничья {draw} (ходят {side})',
    analyze_method: '{method}, агент {agent}; выделено: выбор агента',
    method_net_eval: 'оценка нейросетью, глубина {ply}',
    method_search: 'поиск expectimax, глубина {ply}',
    method_rollouts: 'роллауты ({trials} партий на ход, стратифицированные броски)',
    method_net: 'нейросеть',
    method_rollouts_eval: 'роллауты ({trials} партий)',
    tutor_warning: 'Тренер: ход {move} теряет {loss} очка эквити по сравнению с лучшим ходом ' +
        '{best} ({method}). Оставьте его или сыграйте другой ход.',
    nothing_to_review: 'разбирать нечего: сыграйте ход или загрузите файл записи',
    rv_decisions: 'решения',
    rv_total_error: 'сумма ошибок',
    rv_error_rate: 'частота ошибок (тысячные очка на решение)',
    rv_rating: 'рейтинг',
    rv_luck: 'удача',
    rv_result: 'результат',
    rv_adjusted: 'результат с поправкой на удачу',
    mark_doubtful: 'сомнительный',
    mark_bad: 'плохой',
    mark_very_bad: 'очень плохой',
    band_supernatural: 'сверхъестественный',
    band_world_class: 'мировой класс',
    band_expert: 'эксперт',
    band_advanced: 'продвинутый',
    band_intermediate: 'средний',
    band_casual: 'любитель',
    band_beginner: 'новичок',
    band_awful: 'ужасный',
    phase_opening: 'дебют',
    phase_contact: 'контакт',
    phase_race: 'гонка',
    phase_bearoff: 'выбрасывание',
    forced: 'вынужденный',
    rv_turn: 'Партия {game}, ход {turn}: {name} ({side}, {phase}), бросок {dice}',
    rv_turn_error: '; ошибка {error}',
    rv_turn_forced: '; ход вынужденный',
    best_was_played: 'сыгран лучший ход',
    rv_played: 'сыграно {move}',
    rv_best: 'лучший ход {move}',
    svg_caption: 'Белые: пипсы {wp}, выброшено {wo}, на голове {wh}    ' +
        'Чёрные: пипсы {bp}, выброшено {bo}, на голове {bh}    {to_move}',
    svg_white_to_move: 'ходят белые',
    svg_black_to_move: 'ходят чёрные',
  },

  uk: {
    language: 'Українська',
    page_title: 'nardy \u2014 довгі нарди',
    lang_label: 'Мова',
    playing: 'суперник: {agent}',
    match_to: 'Матч до',
    match_points: '',
    you_are: 'Ви граєте',
    colour_white: 'білими в 1-й партії',
    colour_black: 'чорними в 1-й партії',
    seed: 'Зерно',
    new_match: 'Новий матч',
    score_label: 'Рахунок',
    score_note: '(ви \u2013 бот, до {target})',
    game_label: 'Партія',
    board_aria: 'дошка',
    dice_aria: 'кубики',
    loading: 'Завантаження\u2026',
    roll: 'Кинути кубики',
    undo: 'Скасувати крок',
    confirm: 'Підтвердити хід',
    next_game: 'Наступна партія',
    download: 'Завантажити запис матчу',
    download_title: 'Запис матчу (core/match.h), як його зберігає сервер',
    legal_aria: 'можливі ходи',
    play_listed: 'Зіграти хід зі списку',
    tutor_label: 'Тренер: попереджати, якщо хід втрачає більше ніж',
    tutor_keep: 'Залишити мій хід',
    history: 'Ходи цієї партії',
    analysis: 'Аналіз позиції',
    an_pos: 'Позиція (текст POS або ID)',
    an_dice: 'Кубики',
    an_trials: 'Ролаути',
    an_current: 'Поточна позиція',
    an_run: 'Аналізувати',
    an_eval: 'Оцінити',
    an_filtered: 'Не прораховані: відсіяні за оцінкою на глибині 0 і впорядковані за нею',
    col_move: 'хід',
    col_equity: 'еквіті',
    col_win: 'перемога',
    col_win_mars: 'перемога марсом',
    col_lose_mars: 'поразка марсом',
    col_draw: 'нічия',
    review: 'Розбір партії',
    rv_match: 'Розібрати цей матч',
    rv_file: 'або файл запису (nardy чи .mat)',
    rv_ply: 'Глибина',
    rv_ply_own: 'як в агента',
    rv_graph_aria: 'еквіті першого гравця після кожного ходу',
    rv_prev: 'Попередній хід',
    rv_next: 'Наступний хід',
    rv_next_mark: 'Наступний позначений хід',
    col_turn: 'хід',
    col_player: 'гравець',
    col_roll: 'кидок',
    col_played: 'зіграно',
    col_mark: 'позначка',
    col_error: 'помилка',
    col_best: 'найкращий хід',
    col_luck: 'удача',
    rules_label: 'Правила:',
    footer_help: 'Клацніть по своїй шашці, потім по підсвіченому пункту (або по лотку, щоб ' +
        'викинути шашку); один кубик за клацання. Рахунок веде сервер (<code>nardy serve</code>): ' +
        'сторінка надсилає йому запис матчу з кожним ходом (<code>/api/match/\u2026</code>).',
    rules_hint: 'Довгі нарди: обидві сторони ходять в одному напрямку й не б\u2019ють шашок; ' +
        'одна шашка займає пункт повністю. З голови за хід знімається одна шашка (на першому ' +
        'ходу при 6-6, 4-4 або 3-3 \u2014 дві). Не можна ставити блок (паркан) із шести ' +
        'пунктів поспіль, якщо попереду нього немає жодної шашки суперника. Приведіть усі 15 ' +
        'шашок додому й викиньте їх: перемога \u2014 ойн (1 очко) або марс (2 очки), якщо ' +
        'суперник не викинув жодної шашки.',
    side_white: 'білі',
    side_black: 'чорні',
    letter_white: 'Б',
    letter_black: 'Ч',
    tray_off: 'викид',
    you: 'Ви',
    bot: 'Бот',
    pips: '{who} ({side}): піпси {pips}, викинуто {off}',
    bot_thinking: 'Бот думає\u2026',
    bot_played: 'Боту ({side}) випало {dice}, він зіграв {move}',
    bot_played_mwc: 'Боту ({side}) випало {dice}, він зіграв {move} (еквіті {equity}, шанси ' +
        'на матч {mwc}%)',
    your_roll: 'Ваш хід ({side}): киньте кубики',
    your_move: 'Ваш хід ({side}), кидок {dice}: виберіть шашку',
    your_move_done: 'Ваш хід: {move} \u2014 підтвердіть його',
    no_legal_move: 'Ходів немає: підтвердіть пропуск ходу',
    move_pass: 'пропуск',
    draw_game: 'Нічия: по пів очка кожному.',
    you_win_oin: 'Ви виграли ойн (1 очко).',
    you_win_mars: 'Ви виграли марс (2 очки).',
    bot_wins_oin: 'Бот виграв ойн (1 очко).',
    bot_wins_mars: 'Бот виграв марс (2 очки).',
    match_over_you: 'Матч завершено: ви перемогли з рахунком {score}.',
    match_over_bot: 'Матч завершено: бот переміг з рахунком {score}.',
    next_game_white: 'Наступна партія: ви граєте білими.',
    next_game_black: 'Наступна партія: ви граєте чорними.',
    eval_out: '{method}: еквіті {equity} \u00b7 перемога {win} \u00b7 перемога марсом ' +
        '{win_mars} \u00b7 поразка марсом {lose_mars} \u00b7 нічия {draw} (ходять {side})',
    analyze_method: '{method}, агент {agent}; виділено: вибір агента',
    method_net_eval: 'оцінка нейромережею, глибина {ply}',
    method_search: 'пошук expectimax, глибина {ply}',
    method_rollouts: 'ролаути ({trials} партій на хід, стратифіковані кидки)',
    method_net: 'нейромережа',
    method_rollouts_eval: 'ролаути ({trials} партій)',
    tutor_warning: 'Тренер: хід {move} втрачає {loss} очка еквіті порівняно з найкращим ходом ' +
        '{best} ({method}). Залиште його або зіграйте інший хід.',
    nothing_to_review: 'розбирати нічого: зіграйте хід або завантажте файл запису',
    rv_decisions: 'рішення',
    rv_total_error: 'сума помилок',
    rv_error_rate: 'частота помилок (тисячні очка на рішення)',
    rv_rating: 'рейтинг',
    rv_luck: 'удача',
    rv_result: 'результат',
    rv_adjusted: 'результат з поправкою на удачу',
    mark_doubtful: 'сумнівний',
    mark_bad: 'поганий',
    mark_very_bad: 'дуже поганий',
    band_supernatural: 'надприродний',
    band_world_class: 'світовий клас',
    band_expert: 'експерт',
    band_advanced: 'просунутий',
    band_intermediate: 'середній',
    band_casual: 'любитель',
    band_beginner: 'початківець',
    band_awful: 'жахливий',
    phase_opening: 'дебют',
    phase_contact: 'контакт',
    phase_race: 'перегони',
    phase_bearoff: 'викидання',
    forced: 'вимушений',
    rv_turn: 'Партія {game}, хід {turn}: {name} ({side}, {phase}), кидок {dice}',
    rv_turn_error: '; помилка {error}',
    rv_turn_forced: '; хід вимушений',
    best_was_played: 'зіграно найкращий хід',
    rv_played: 'зіграно {move}',
    rv_best: 'найкращий хід {move}',
    svg_caption: 'Білі: піпси {wp}, викинуто {wo}, на голові {wh}    ' +
        'Чорні: піпси {bp}, викинуто {bo}, на голові {bh}    {to_move}',
    svg_white_to_move: 'ходять білі',
    svg_black_to_move: 'ходять чорні',
  },

  az: {
    language: 'Azərbaycanca',
    page_title: 'nardy \u2014 uzun nərd',
    lang_label: 'Dil',
    playing: 'rəqib: {agent}',
    match_to: 'Matç',
    match_points: 'xala qədər',
    you_are: 'Rənginiz:',
    colour_white: '1-ci oyunda ağ',
    colour_black: '1-ci oyunda qara',
    seed: 'Toxum',
    new_match: 'Yeni matç',
    score_label: 'Hesab',
    score_note: '(siz \u2013 bot, {target} xala qədər)',
    game_label: 'Oyun',
    board_aria: 'taxta',
    dice_aria: 'zərlər',
    loading: 'Yüklənir\u2026',
    roll: 'Zər at',
    undo: 'Addımı geri al',
    confirm: 'Gedişi təsdiqlə',
    next_game: 'Növbəti oyun',
    download: 'Matçın qeydini yüklə',
    download_title: 'Matçın qeydi (core/match.h), serverdə saxlandığı kimi',
    legal_aria: 'mümkün gedişlər',
    play_listed: 'Siyahıdakı gedişi oyna',
    tutor_label: 'Məşqçi: gediş bundan çox itirəndə xəbərdar et',
    tutor_keep: 'Gedişimi saxla',
    history: 'Bu oyunun gedişləri',
    analysis: 'Mövqe təhlili',
    an_pos: 'Mövqe (POS mətni və ya ID)',
    an_dice: 'Zərlər',
    an_trials: 'Rollout sayı',
    an_current: 'Cari mövqe',
    an_run: 'Təhlil et',
    an_eval: 'Qiymətləndir',
    an_filtered: 'Axtarılmayıb: dərinlik 0 qiymətinə görə ayrılıb və ona görə sıralanıb',
    col_move: 'gediş',
    col_equity: 'dəyər',
    col_win: 'qələbə',
    col_win_mars: 'mars ilə qələbə',
    col_lose_mars: 'mars ilə məğlubiyyət',
    col_draw: 'heç-heçə',
    review: 'Oyunun təhlili',
    rv_match: 'Bu matçı təhlil et',
    rv_file: 'və ya qeyd faylı (nardy və ya .mat)',
    rv_ply: 'Dərinlik',
    rv_ply_own: 'agentin öz dərinliyi',
    rv_graph_aria: 'birinci oyunçunun hər gedişdən sonrakı dəyəri',
    rv_prev: 'Əvvəlki gediş',
    rv_next: 'Növbəti gediş',
    rv_next_mark: 'Növbəti qeyd olunmuş gediş',
    col_turn: 'gediş',
    col_player: 'oyunçu',
    col_roll: 'zər',
    col_played: 'oynanılıb',
    col_mark: 'qeyd',
    col_error: 'səhv',
    col_best: 'ən yaxşı gediş',
    col_luck: 'şans',
    rules_label: 'Qaydalar:',
    footer_help: 'Öz daşınıza, sonra işıqlanan xanaya klikləyin (daşı çıxarmaq üçün isə sağdakı ' +
        'qutuya); hər klik bir zər. Hesabı server (<code>nardy serve</code>) aparır: səhifə hər ' +
        'gedişlə ona matçın qeydini göndərir (<code>/api/match/\u2026</code>).',
    rules_hint: 'Uzun nərd: hər iki tərəf eyni istiqamətdə gedir və daş vurulmur; bir daş ' +
        'xananı tamamilə tutur. Başdan hər gedişdə bir daş götürülür (ilk gedişdə 6-6, 4-4 və ' +
        'ya 3-3 düşəndə iki). Qabağında rəqibin heç bir daşı olmayan, ardıcıl altı xanalıq ' +
        'blok (hasar) qurmaq olmaz. 15 daşın hamısını evə gətirib çıxarın: qalib oyun (1 xal) ' +
        'qazanır, rəqib heç bir daş çıxarmayıbsa \u2014 mars (2 xal).',
    side_white: 'ağ',
    side_black: 'qara',
    letter_white: 'A',
    letter_black: 'Q',
    tray_off: 'çıxan',
    you: 'Siz',
    bot: 'Bot',
    pips: '{who} ({side}): pip {pips}, çıxarılıb {off}',
    bot_thinking: 'Bot düşünür\u2026',
    bot_played: 'Bot ({side}) {dice} atdı və {move} oynadı',
    bot_played_mwc: 'Bot ({side}) {dice} atdı və {move} oynadı (dəyər {equity}, matçı qazanma ' +
        'şansı {mwc}%)',
    your_roll: 'Sizin gedişiniz ({side}): zər atın',
    your_move: 'Sizin gedişiniz ({side}), zər {dice}: daş seçin',
    your_move_done: 'Gedişiniz: {move} \u2014 təsdiqləyin',
    no_legal_move: 'Mümkün gediş yoxdur: növbəni ötürmək üçün təsdiqləyin',
    move_pass: 'gediş yoxdur',
    draw_game: 'Heç-heçə: hər tərəfə yarım xal.',
    you_win_oin: 'Siz oyun qazandınız (1 xal).',
    you_win_mars: 'Siz mars etdiniz (2 xal).',
    bot_wins_oin: 'Bot oyun qazandı (1 xal).',
    bot_wins_mars: 'Bot mars etdi (2 xal).',
    match_over_you: 'Matç bitdi: {score} hesabı ilə siz qalib gəldiniz.',
    match_over_bot: 'Matç bitdi: {score} hesabı ilə bot qalib gəldi.',
    next_game_white: 'Növbəti oyun: siz ağlarla oynayırsınız.',
    next_game_black: 'Növbəti oyun: siz qaralarla oynayırsınız.',
    eval_out: '{method}: dəyər {equity} \u00b7 qələbə {win} \u00b7 mars ilə qələbə {win_mars} ' +
        '\u00b7 mars ilə məğlubiyyət {lose_mars} \u00b7 heç-heçə {draw} (gediş: {side})',
    analyze_method: '{method}, agent {agent}; seçilmiş sətir: agentin seçimi',
    method_net_eval: 'neyron şəbəkə ilə qiymətləndirmə, dərinlik {ply}',
    method_search: 'expectimax axtarışı, dərinlik {ply}',
    method_rollouts: 'rollout (hər gediş üçün {trials} oyun, stratifikasiyalı zərlər)',
    method_net: 'neyron şəbəkə',
    method_rollouts_eval: 'rollout ({trials} oyun)',
    tutor_warning: 'Məşqçi: {move} gedişi ən yaxşı gediş {best} ilə müqayisədə {loss} xal ' +
        'dəyər itirir ({method}). Onu saxlayın və ya başqa gediş edin.',
    nothing_to_review: 'təhlil üçün heç nə yoxdur: gediş edin və ya qeyd faylı yükləyin',
    rv_decisions: 'qərarlar',
    rv_total_error: 'ümumi səhv',
    rv_error_rate: 'səhv tezliyi (qərar başına xalın mində biri)',
    rv_rating: 'reytinq',
    rv_luck: 'şans',
    rv_result: 'nəticə',
    rv_adjusted: 'şansa görə düzəldilmiş nəticə',
    mark_doubtful: 'şübhəli',
    mark_bad: 'pis',
    mark_very_bad: 'çox pis',
    band_supernatural: 'fövqəltəbii',
    band_world_class: 'dünya səviyyəsi',
    band_expert: 'ekspert',
    band_advanced: 'təcrübəli',
    band_intermediate: 'orta',
    band_casual: 'həvəskar',
    band_beginner: 'yeni başlayan',
    band_awful: 'dəhşətli',
    phase_opening: 'başlanğıc',
    phase_contact: 'təmas',
    phase_race: 'yarış',
    phase_bearoff: 'daşların çıxarılması',
    forced: 'məcburi',
    rv_turn: 'Oyun {game}, gediş {turn}: {name} ({side}, {phase}), zər {dice}',
    rv_turn_error: '; səhv {error}',
    rv_turn_forced: '; məcburi gediş',
    best_was_played: 'ən yaxşı gediş oynanılıb',
    rv_played: 'oynanılıb: {move}',
    rv_best: 'ən yaxşı gediş: {move}',
    svg_caption: 'Ağlar: pip {wp}, çıxarılıb {wo}, başda {wh}    ' +
        'Qaralar: pip {bp}, çıxarılıb {bo}, başda {bh}    {to_move}',
    svg_white_to_move: 'gediş ağlarındır',
    svg_black_to_move: 'gediş qaralarındır',
  },

  tr: {
    language: 'Türkçe',
    page_title: 'nardy \u2014 uzun tavla (Rus tavlası)',
    lang_label: 'Dil',
    playing: 'rakip: {agent}',
    match_to: 'Maç:',
    match_points: 'puan',
    you_are: 'Renginiz:',
    colour_white: '1. oyunda beyaz',
    colour_black: '1. oyunda siyah',
    seed: 'Tohum',
    new_match: 'Yeni maç',
    score_label: 'Skor',
    score_note: '(siz \u2013 bot, {target} puanlık maç)',
    game_label: 'Oyun',
    board_aria: 'tahta',
    dice_aria: 'zarlar',
    loading: 'Yükleniyor\u2026',
    roll: 'Zar at',
    undo: 'Adımı geri al',
    confirm: 'Hamleyi onayla',
    next_game: 'Sonraki oyun',
    download: 'Maç kaydını indir',
    download_title: 'Maç kaydı (core/match.h), sunucunun tuttuğu haliyle',
    legal_aria: 'yasal hamleler',
    play_listed: 'Listedeki hamleyi oyna',
    tutor_label: 'Öğretmen: bir hamle şundan fazla kaybettirirse uyar',
    tutor_keep: 'Hamlemi koru',
    history: 'Bu oyunun hamleleri',
    analysis: 'Pozisyon analizi',
    an_pos: 'Pozisyon (POS metni veya ID)',
    an_dice: 'Zarlar',
    an_trials: 'Rollout sayısı',
    an_current: 'Mevcut pozisyon',
    an_run: 'Analiz et',
    an_eval: 'Değerlendir',
    an_filtered: 'Aranmadı: derinlik 0 değerine göre elendi ve ona göre sıralandı',
    col_move: 'hamle',
    col_equity: 'değer',
    col_win: 'kazanma',
    col_win_mars: 'mars ile kazanma',
    col_lose_mars: 'mars ile kaybetme',
    col_draw: 'beraberlik',
    review: 'Oyun incelemesi',
    rv_match: 'Bu maçı incele',
    rv_file: 'veya bir kayıt dosyası (nardy veya .mat)',
    rv_ply: 'Derinlik',
    rv_ply_own: 'ajanın kendi derinliği',
    rv_graph_aria: 'ilk oyuncunun her hamleden sonraki değeri',
    rv_prev: 'Önceki hamle',
    rv_next: 'Sonraki hamle',
    rv_next_mark: 'Sonraki işaretli hamle',
    col_turn: 'hamle',
    col_player: 'oyuncu',
    col_roll: 'zar',
    col_played: 'oynanan',
    col_mark: 'işaret',
    col_error: 'hata',
    col_best: 'en iyi hamle',
    col_luck: 'şans',
    rules_label: 'Kurallar:',
    footer_help: 'Kendi pulunuza, sonra vurgulanan haneye tıklayın (pulu toplamak için sağdaki ' +
        'kutuya); her tıklama bir zar. Skoru sunucu (<code>nardy serve</code>) tutar: sayfa her ' +
        'hamlede ona maç kaydını gönderir (<code>/api/match/\u2026</code>).',
    rules_hint: 'Uzun tavla: iki taraf da aynı yönde ilerler ve pul kırılmaz; tek bir pul ' +
        'haneyi tamamen tutar. Her hamlede baştan yalnızca bir pul çıkar (ilk hamlede 6-6, 4-4 ' +
        'veya 3-3 gelirse iki). Önünde rakibin hiç pulu yokken arka arkaya altı hanelik blok ' +
        '(duvar) kurulamaz. 15 pulun hepsini eve getirip toplayın: kazanan oyun (1 puan) alır, ' +
        'rakip hiç pul toplamadıysa mars (2 puan).',
    side_white: 'beyaz',
    side_black: 'siyah',
    letter_white: 'B',
    letter_black: 'S',
    tray_off: 'toplanan',
    you: 'Siz',
    bot: 'Bot',
    pips: '{who} ({side}): pip {pips}, toplanan {off}',
    bot_thinking: 'Bot düşünüyor\u2026',
    bot_played: 'Bot ({side}) {dice} attı ve {move} oynadı',
    bot_played_mwc: 'Bot ({side}) {dice} attı ve {move} oynadı (değer {equity}, maçı kazanma ' +
        'şansı %{mwc})',
    your_roll: 'Sıra sizde ({side}): zar atın',
    your_move: 'Sıra sizde ({side}), zar {dice}: bir pul seçin',
    your_move_done: 'Hamleniz: {move} \u2014 onaylayın',
    no_legal_move: 'Yasal hamle yok: pas geçmek için onaylayın',
    move_pass: 'pas',
    draw_game: 'Beraberlik: her tarafa yarım puan.',
    you_win_oin: 'Oyunu kazandınız (1 puan).',
    you_win_mars: 'Mars ettiniz (2 puan).',
    bot_wins_oin: 'Bot oyunu kazandı (1 puan).',
    bot_wins_mars: 'Bot mars etti (2 puan).',
    match_over_you: 'Maç bitti: {score} ile siz kazandınız.',
    match_over_bot: 'Maç bitti: {score} ile bot kazandı.',
    next_game_white: 'Sonraki oyun: beyazla oynuyorsunuz.',
    next_game_black: 'Sonraki oyun: siyahla oynuyorsunuz.',
    eval_out: '{method}: değer {equity} \u00b7 kazanma {win} \u00b7 mars ile kazanma {win_mars} ' +
        '\u00b7 mars ile kaybetme {lose_mars} \u00b7 beraberlik {draw} (sıra: {side})',
    analyze_method: '{method}, ajan {agent}; vurgulanan: ajanın seçimi',
    method_net_eval: 'sinir ağı değerlendirmesi, derinlik {ply}',
    method_search: 'expectimax araması, derinlik {ply}',
    method_rollouts: 'rollout (hamle başına {trials} oyun, tabakalı zarlar)',
    method_net: 'sinir ağı',
    method_rollouts_eval: 'rollout ({trials} oyun)',
    tutor_warning: 'Öğretmen: {move}, en iyi hamle {best} ile karşılaştırıldığında {loss} puan ' +
        'değer kaybettiriyor ({method}). Hamleyi koruyun veya başka bir hamle yapın.',
    nothing_to_review: 'incelenecek bir şey yok: bir hamle yapın veya bir kayıt dosyası yükleyin',
    rv_decisions: 'kararlar',
    rv_total_error: 'toplam hata',
    rv_error_rate: 'hata oranı (karar başına binde bir puan)',
    rv_rating: 'derece',
    rv_luck: 'şans',
    rv_result: 'sonuç',
    rv_adjusted: 'şansa göre düzeltilmiş sonuç',
    mark_doubtful: 'şüpheli',
    mark_bad: 'kötü',
    mark_very_bad: 'çok kötü',
    band_supernatural: 'doğaüstü',
    band_world_class: 'dünya klası',
    band_expert: 'uzman',
    band_advanced: 'ileri',
    band_intermediate: 'orta',
    band_casual: 'amatör',
    band_beginner: 'acemi',
    band_awful: 'berbat',
    phase_opening: 'açılış',
    phase_contact: 'temas',
    phase_race: 'yarış',
    phase_bearoff: 'toplama',
    forced: 'zorunlu',
    rv_turn: 'Oyun {game}, hamle {turn}: {name} ({side}, {phase}), zar {dice}',
    rv_turn_error: '; hata {error}',
    rv_turn_forced: '; zorunlu hamle',
    best_was_played: 'en iyi hamle oynandı',
    rv_played: 'oynanan: {move}',
    rv_best: 'en iyi hamle: {move}',
    svg_caption: 'Beyaz: pip {wp}, toplanan {wo}, başta {wh}    ' +
        'Siyah: pip {bp}, toplanan {bo}, başta {bh}    {to_move}',
    svg_white_to_move: 'sıra beyazda',
    svg_black_to_move: 'sıra siyahta',
  },
};

// Keys whose texts are HTML (our own markup only: <code>); every other text is set as text.
const I18N_HTML_KEYS = new Set(['footer_help']);
const I18N_STORAGE = 'nardy.lang';
let LANG = 'en';
const i18nHooks = [];  // called after a language change, to re-render dynamic texts

// The text of `key` in the current language (English if the language lacks it, the key itself
// if English does too), with "{name}" replaced by params[name].
function t(key, params) {
  const table = I18N[LANG] || I18N.en;
  const text = key in table ? table[key] : key in I18N.en ? I18N.en[key] : key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
}

// Words for the English names the server's JSON uses: sides, marks, rating bands, phases.
function tSide(side) { return t('side_' + side); }
function tMark(mark) { return mark ? t('mark_' + mark.replace(/ /g, '_')) : ''; }
function tBand(band) { return t('band_' + band.replace(/ /g, '_')); }
function tPhase(phase) { return t('phase_' + phase); }
function tMove(notation) { return notation === 'pass' ? t('move_pass') : notation; }
// An analysis method as the server words it ("1-ply expectimax search", "net", ...).
function tMethod(method) {
  let m;
  if ((m = /^(\d+)-ply net evaluation$/.exec(method))) return t('method_net_eval', { ply: m[1] });
  if ((m = /^(\d+)-ply expectimax search$/.exec(method))) return t('method_search', { ply: m[1] });
  if ((m = /^rollouts \((\d+) trials per move, stratified dice\)$/.exec(method)))
    return t('method_rollouts', { trials: m[1] });
  if ((m = /^rollouts \((\d+) trials\)$/.exec(method)))
    return t('method_rollouts_eval', { trials: m[1] });
  if (method === 'net') return t('method_net');
  return method;
}

// The caption and the trays' "off N" of the server's SVG boards (/api/show, core/board_svg.cpp)
// in the current language, for every such board inside `root`: the English caption is kept in data-en, so the
// boards follow later changes of language too; a longer caption gets a smaller font to fit.
const SVG_CAPTION = /^White: pips (\d+), off (\d+), head (\d+) {4}Black: pips (\d+), off (\d+), head (\d+) {4}(White|Black) to move$/;
function localizeBoards(root) {
  for (const e of root.querySelectorAll('svg text')) {
    const english = e.dataset.en || e.textContent;
    const off = /^off (\d+)$/.exec(english);  // a tray's borne-off count
    if (off) {
      if (!e.dataset.en) {
        e.dataset.en = english;
        e.dataset.fontSize = e.getAttribute('font-size') || '14';
      }
      const size = Number(e.dataset.fontSize), word = t('tray_off');
      e.textContent = `${word} ${off[1]}`;
      e.setAttribute('font-size', String(Math.min(size, size * 6 / (word.length + 2))));
      continue;
    }
    const m = SVG_CAPTION.exec(english);
    if (!m) continue;
    if (!e.dataset.en) {
      e.dataset.en = english;
      e.dataset.fontSize = e.getAttribute('font-size') || '15';
    }
    const text = t('svg_caption', { wp: m[1], wo: m[2], wh: m[3], bp: m[4], bo: m[5], bh: m[6],
                                    to_move: t(m[7] === 'White' ? 'svg_white_to_move'
                                                                : 'svg_black_to_move') });
    e.textContent = text;
    const size = Number(e.dataset.fontSize);
    e.setAttribute('font-size', String(Math.min(size, size * english.length / text.length)));
  }
}

// The language to start in: ?lang=, the stored choice, the browser's languages, English.
function initialLanguage() {
  const url = new URLSearchParams(location.search).get('lang');
  if (url && I18N[url]) return url;
  try {
    const stored = localStorage.getItem(I18N_STORAGE);
    if (stored && I18N[stored]) return stored;
  } catch (e) { /* storage disabled */ }
  for (const l of navigator.languages || [navigator.language || '']) {
    const code = String(l).toLowerCase().split('-')[0];
    if (I18N[code]) return code;
  }
  return 'en';
}

// Sets every static text of the page: elements with data-i18n (text), data-i18n-title,
// data-i18n-aria (aria-label); the title, <html lang>, and the switch.
function applyStaticTexts() {
  document.documentElement.lang = LANG;
  document.title = t('page_title');
  for (const e of document.querySelectorAll('[data-i18n]')) {
    const key = e.dataset.i18n;
    if (I18N_HTML_KEYS.has(key)) e.innerHTML = t(key);
    else e.textContent = t(key);
  }
  for (const e of document.querySelectorAll('[data-i18n-title]')) e.title = t(e.dataset.i18nTitle);
  for (const e of document.querySelectorAll('[data-i18n-aria]'))
    e.setAttribute('aria-label', t(e.dataset.i18nAria));
  const sw = document.getElementById('lang');
  if (sw) sw.value = LANG;
}

// Switches to `code`: stored, put in the URL, every text re-rendered (the game is kept).
function setLanguage(code, remember) {
  if (!I18N[code]) return;
  LANG = code;
  if (remember) {
    try { localStorage.setItem(I18N_STORAGE, code); } catch (e) { /* storage disabled */ }
    const url = new URL(location.href);
    url.searchParams.set('lang', code);
    history.replaceState(history.state, '', url);
  }
  applyStaticTexts();
  localizeBoards(document);
  for (const f of i18nHooks) f();
}

function onLanguageChange(f) { i18nHooks.push(f); }

// The switch: one option per language, in its own name.
function initLanguageSwitch() {
  const sw = document.getElementById('lang');
  sw.replaceChildren(...Object.keys(I18N).map((code) => {
    const o = document.createElement('option');
    o.value = code;
    o.textContent = I18N[code].language;
    o.lang = code;
    return o;
  }));
  sw.addEventListener('change', () => setLanguage(sw.value, true));
  LANG = initialLanguage();
  applyStaticTexts();
}
