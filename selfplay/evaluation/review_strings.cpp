// The review reports' strings, one table per language (selfplay/evaluation/review_strings.h).
//
// English is the reference: every other table has exactly its keys and, in each text, the same
// "{name}" placeholders (tested). The game's own words: Russian and Ukrainian ойн / марс (a
// single win / a mars), голова (the head), дом / дім (home), выбрасывание / викидання (bearing
// off); Azerbaijani (uzun nərd) and Turkish (uzun tavla) oyun / mars, zər / zar (dice), daş (a
// checker) and xal / puan (points).
#include "selfplay/evaluation/review_strings.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"

namespace nardy {

namespace {

using Table = ReviewStrings::Table;

const Table kEnglish = {
    {"language", "English"},
    {"mark_doubtful", "doubtful"},
    {"mark_bad", "bad"},
    {"mark_very_bad", "very bad"},
    {"band_supernatural", "supernatural"},
    {"band_world_class", "world class"},
    {"band_expert", "expert"},
    {"band_advanced", "advanced"},
    {"band_intermediate", "intermediate"},
    {"band_casual", "casual"},
    {"band_beginner", "beginner"},
    {"band_awful", "awful"},
    {"phase_opening", "opening"},
    {"phase_contact", "contact"},
    {"phase_race", "race"},
    {"phase_bearoff", "bearoff"},
    {"white", "White"},
    {"black", "Black"},
    {"white_letter", "W"},
    {"black_letter", "B"},
    {"outcome_white", "white"},
    {"outcome_black", "black"},
    {"outcome_oin", "{side} 1"},
    {"outcome_mars", "{side} 2"},
    {"outcome_draw", "draw"},
    {"unfinished", "unfinished"},
    {"method_net", "{ply}-ply net evaluation"},
    {"method_search", "{ply}-ply expectimax search"},
    {"method_rollouts", "rollouts ({trials} trials per move, stratified dice)"},
    {"review_by", "Review by {agent} ({method}); equities in points for the mover"},
    {"marks_legend",
     "marks: ?! {doubtful} >= {d}, ? {bad} >= {b}, ?? {very_bad} >= {v}; luck: best 0-ply value "
     "of the roll minus its mean over the rolls"},
    {"game_heading", "Game {n}: {white} (White) vs {black} (Black)"},
    {"game_score", ", score {score}"},
    {"score", "{name0} {points0} - {points1} {name1} (to {target})"},
    {"game_result", "; result {result}"},
    {"col_turn", "turn"},
    {"col_player", "player"},
    {"col_roll", "roll"},
    {"col_played", "played"},
    {"col_mark", "mark"},
    {"col_error", "error"},
    {"col_best", "best"},
    {"col_luck", "luck"},
    {"col_rank", "rank"},
    {"col_move", "move"},
    {"col_equity", "equity"},
    {"col_diff", "diff"},
    {"col_win", "win"},
    {"col_win_mars", "mars"},
    {"col_lose_mars", "lose mars"},
    {"forced", "forced"},
    {"summary", "Summary"},
    {"summary_all", "Summary of all games"},
    {"summary_game", "Summary of game {n}"},
    {"row_turns", "turns"},
    {"row_decisions", "decisions (unforced turns)"},
    {"row_total_error", "total error (points)"},
    {"row_error_rate", "error rate (millipoints per decision)"},
    {"row_rating", "rating (500 × mean error)"},
    {"row_mwc_error", "total error (MWC %)"},
    {"row_luck", "total luck (points)"},
    {"row_result", "result (points)"},
    {"row_adjusted", "luck-adjusted result"},
    {"row_phase", "{phase}: rating (decisions)"},
    {"bands", "rating bands"},
    {"bands_else", "else"},
    {"marked_moves", "Marked moves"},
    {"turn_heading", "Game {game}, turn {turn}: {name} ({side}, {phase}) rolled {dice}"},
    {"played_losing", "played {move} {symbol} ({mark}), losing {error}"},
    {"loses", "loses {error}"},
    {"mwc", "{mwc}% MWC"},
    {"played_marker", "(played)"},
    {"played_move", "played {move}"},
    {"best_move", "best {move}"},
    {"html_title", "nardy review"},
    {"html_review", "Review"},
    {"html_by", "By {agent} ({method}); equities in points for the mover."},
    {"html_marks", "Marks: {doubtful} ≥ {d}, {bad} ≥ {b}, {very_bad} ≥ {v}."},
    {"html_rules", "Rules: {rules}."},
    {"html_match", "Match to {target}."},
    {"html_equity_of", "Equity of {name} after each turn"},
    {"graph_game", "game {n}"},
    {"graph_dot", "game {game} turn {turn}: {move} {symbol}, loses {error}"},
    {"svg_caption",
     "White: pips {wp}, off {wo}, head {wh}    Black: pips {bp}, off {bo}, head {bh}    {to_move}"},
    {"svg_white_to_move", "White to move"},
    {"svg_black_to_move", "Black to move"},
    {"svg_off", "off"},
};

const Table kRussian = {
    {"language", "Русский"},
    {"mark_doubtful", "сомнительный"},
    {"mark_bad", "плохой"},
    {"mark_very_bad", "очень плохой"},
    {"band_supernatural", "сверхъестественный"},
    {"band_world_class", "мировой класс"},
    {"band_expert", "эксперт"},
    {"band_advanced", "продвинутый"},
    {"band_intermediate", "средний"},
    {"band_casual", "любитель"},
    {"band_beginner", "новичок"},
    {"band_awful", "ужасный"},
    {"phase_opening", "дебют"},
    {"phase_contact", "контакт"},
    {"phase_race", "гонка"},
    {"phase_bearoff", "выбрасывание"},
    {"white", "белые"},
    {"black", "чёрные"},
    {"white_letter", "Б"},
    {"black_letter", "Ч"},
    {"outcome_white", "белых"},
    {"outcome_black", "чёрных"},
    {"outcome_oin", "победа {side}: ойн (1 очко)"},
    {"outcome_mars", "победа {side}: марс (2 очка)"},
    {"outcome_draw", "ничья"},
    {"unfinished", "не доиграна"},
    {"method_net", "оценка нейросетью, глубина {ply}"},
    {"method_search", "поиск expectimax, глубина {ply}"},
    {"method_rollouts", "роллауты ({trials} партий на ход, стратифицированные броски)"},
    {"review_by", "Разбор: {agent} ({method}); эквити в очках для того, кто ходит"},
    {"marks_legend",
     "отметки: ?! {doubtful} >= {d}, ? {bad} >= {b}, ?? {very_bad} >= {v}; удача: лучшая оценка "
     "(0-ply) после броска минус её среднее по всем броскам"},
    {"game_heading", "Партия {n}: {white} (белые) против {black} (чёрные)"},
    {"game_score", ", счёт {score}"},
    {"score", "{name0} {points0} - {points1} {name1} (матч до {target})"},
    {"game_result", "; итог: {result}"},
    {"col_turn", "ход"},
    {"col_player", "игрок"},
    {"col_roll", "бросок"},
    {"col_played", "сыграно"},
    {"col_mark", "отметка"},
    {"col_error", "ошибка"},
    {"col_best", "лучший ход"},
    {"col_luck", "удача"},
    {"col_rank", "место"},
    {"col_move", "ход"},
    {"col_equity", "эквити"},
    {"col_diff", "разница"},
    {"col_win", "победа"},
    {"col_win_mars", "победа марсом"},
    {"col_lose_mars", "поражение марсом"},
    {"forced", "вынужденный"},
    {"summary", "Итоги"},
    {"summary_all", "Итоги всех партий"},
    {"summary_game", "Итоги партии {n}"},
    {"row_turns", "ходы"},
    {"row_decisions", "решения (невынужденные ходы)"},
    {"row_total_error", "сумма ошибок (очки)"},
    {"row_error_rate", "частота ошибок (тысячные очка на решение)"},
    {"row_rating", "рейтинг (500 × средняя ошибка)"},
    {"row_mwc_error", "сумма ошибок (% шансов на матч)"},
    {"row_luck", "сумма удачи (очки)"},
    {"row_result", "результат (очки)"},
    {"row_adjusted", "результат с поправкой на удачу"},
    {"row_phase", "{phase}: рейтинг (решения)"},
    {"bands", "уровни рейтинга"},
    {"bands_else", "иначе"},
    {"marked_moves", "Отмеченные ходы"},
    {"turn_heading", "Партия {game}, ход {turn}: {name} ({side}, {phase}), бросок {dice}"},
    {"played_losing", "сыграно {move} {symbol} ({mark}), потеря {error}"},
    {"loses", "потеря {error}"},
    {"mwc", "{mwc}% шансов на матч"},
    {"played_marker", "(сыграно)"},
    {"played_move", "сыграно {move}"},
    {"best_move", "лучший ход {move}"},
    {"html_title", "nardy: разбор партии"},
    {"html_review", "Разбор партии"},
    {"html_by", "Разбор: {agent} ({method}); эквити в очках для того, кто ходит."},
    {"html_marks", "Отметки: {doubtful} ≥ {d}, {bad} ≥ {b}, {very_bad} ≥ {v}."},
    {"html_rules", "Правила: {rules}."},
    {"html_match", "Матч до {target}."},
    {"html_equity_of", "Эквити игрока {name} после каждого хода"},
    {"graph_game", "партия {n}"},
    {"graph_dot", "партия {game}, ход {turn}: {move} {symbol}, потеря {error}"},
    {"svg_caption",
     "Белые: пипсы {wp}, выброшено {wo}, на голове {wh}    Чёрные: пипсы {bp}, выброшено {bo}, на "
     "голове {bh}    {to_move}"},
    {"svg_white_to_move", "ходят белые"},
    {"svg_black_to_move", "ходят чёрные"},
    {"svg_off", "выброс"},
};

const Table kUkrainian = {
    {"language", "Українська"},
    {"mark_doubtful", "сумнівний"},
    {"mark_bad", "поганий"},
    {"mark_very_bad", "дуже поганий"},
    {"band_supernatural", "надприродний"},
    {"band_world_class", "світовий клас"},
    {"band_expert", "експерт"},
    {"band_advanced", "просунутий"},
    {"band_intermediate", "середній"},
    {"band_casual", "любитель"},
    {"band_beginner", "початківець"},
    {"band_awful", "жахливий"},
    {"phase_opening", "дебют"},
    {"phase_contact", "контакт"},
    {"phase_race", "перегони"},
    {"phase_bearoff", "викидання"},
    {"white", "білі"},
    {"black", "чорні"},
    {"white_letter", "Б"},
    {"black_letter", "Ч"},
    {"outcome_white", "білих"},
    {"outcome_black", "чорних"},
    {"outcome_oin", "перемога {side}: ойн (1 очко)"},
    {"outcome_mars", "перемога {side}: марс (2 очки)"},
    {"outcome_draw", "нічия"},
    {"unfinished", "не дограна"},
    {"method_net", "оцінка нейромережею, глибина {ply}"},
    {"method_search", "пошук expectimax, глибина {ply}"},
    {"method_rollouts", "ролаути ({trials} партій на хід, стратифіковані кидки)"},
    {"review_by", "Розбір: {agent} ({method}); еквіті в очках для того, хто ходить"},
    {"marks_legend",
     "позначки: ?! {doubtful} >= {d}, ? {bad} >= {b}, ?? {very_bad} >= {v}; удача: найкраща "
     "оцінка (0-ply) після кидка мінус її середнє за всіма кидками"},
    {"game_heading", "Партія {n}: {white} (білі) проти {black} (чорні)"},
    {"game_score", ", рахунок {score}"},
    {"score", "{name0} {points0} - {points1} {name1} (матч до {target})"},
    {"game_result", "; підсумок: {result}"},
    {"col_turn", "хід"},
    {"col_player", "гравець"},
    {"col_roll", "кидок"},
    {"col_played", "зіграно"},
    {"col_mark", "позначка"},
    {"col_error", "помилка"},
    {"col_best", "найкращий хід"},
    {"col_luck", "удача"},
    {"col_rank", "місце"},
    {"col_move", "хід"},
    {"col_equity", "еквіті"},
    {"col_diff", "різниця"},
    {"col_win", "перемога"},
    {"col_win_mars", "перемога марсом"},
    {"col_lose_mars", "поразка марсом"},
    {"forced", "вимушений"},
    {"summary", "Підсумки"},
    {"summary_all", "Підсумки всіх партій"},
    {"summary_game", "Підсумки партії {n}"},
    {"row_turns", "ходи"},
    {"row_decisions", "рішення (невимушені ходи)"},
    {"row_total_error", "сума помилок (очки)"},
    {"row_error_rate", "частота помилок (тисячні очка на рішення)"},
    {"row_rating", "рейтинг (500 × середня помилка)"},
    {"row_mwc_error", "сума помилок (% шансів на матч)"},
    {"row_luck", "сума удачі (очки)"},
    {"row_result", "результат (очки)"},
    {"row_adjusted", "результат з поправкою на удачу"},
    {"row_phase", "{phase}: рейтинг (рішення)"},
    {"bands", "рівні рейтингу"},
    {"bands_else", "інакше"},
    {"marked_moves", "Позначені ходи"},
    {"turn_heading", "Партія {game}, хід {turn}: {name} ({side}, {phase}), кидок {dice}"},
    {"played_losing", "зіграно {move} {symbol} ({mark}), втрата {error}"},
    {"loses", "втрата {error}"},
    {"mwc", "{mwc}% шансів на матч"},
    {"played_marker", "(зіграно)"},
    {"played_move", "зіграно {move}"},
    {"best_move", "найкращий хід {move}"},
    {"html_title", "nardy: розбір партії"},
    {"html_review", "Розбір партії"},
    {"html_by", "Розбір: {agent} ({method}); еквіті в очках для того, хто ходить."},
    {"html_marks", "Позначки: {doubtful} ≥ {d}, {bad} ≥ {b}, {very_bad} ≥ {v}."},
    {"html_rules", "Правила: {rules}."},
    {"html_match", "Матч до {target}."},
    {"html_equity_of", "Еквіті гравця {name} після кожного ходу"},
    {"graph_game", "партія {n}"},
    {"graph_dot", "партія {game}, хід {turn}: {move} {symbol}, втрата {error}"},
    {"svg_caption",
     "Білі: піпси {wp}, викинуто {wo}, на голові {wh}    Чорні: піпси {bp}, викинуто {bo}, на "
     "голові {bh}    {to_move}"},
    {"svg_white_to_move", "ходять білі"},
    {"svg_black_to_move", "ходять чорні"},
    {"svg_off", "викид"},
};

const Table kAzerbaijani = {
    {"language", "Azərbaycanca"},
    {"mark_doubtful", "şübhəli"},
    {"mark_bad", "pis"},
    {"mark_very_bad", "çox pis"},
    {"band_supernatural", "fövqəltəbii"},
    {"band_world_class", "dünya səviyyəsi"},
    {"band_expert", "ekspert"},
    {"band_advanced", "təcrübəli"},
    {"band_intermediate", "orta"},
    {"band_casual", "həvəskar"},
    {"band_beginner", "yeni başlayan"},
    {"band_awful", "dəhşətli"},
    {"phase_opening", "başlanğıc"},
    {"phase_contact", "təmas"},
    {"phase_race", "yarış"},
    {"phase_bearoff", "daşların çıxarılması"},
    {"white", "ağ"},
    {"black", "qara"},
    {"white_letter", "A"},
    {"black_letter", "Q"},
    {"outcome_white", "ağlar"},
    {"outcome_black", "qaralar"},
    {"outcome_oin", "{side} qalib gəldi: oyun (1 xal)"},
    {"outcome_mars", "{side} qalib gəldi: mars (2 xal)"},
    {"outcome_draw", "heç-heçə"},
    {"unfinished", "başa çatmayıb"},
    {"method_net", "neyron şəbəkə ilə qiymətləndirmə, dərinlik {ply}"},
    {"method_search", "expectimax axtarışı, dərinlik {ply}"},
    {"method_rollouts", "rollout (hər gediş üçün {trials} oyun, stratifikasiyalı zərlər)"},
    {"review_by", "Təhlil: {agent} ({method}); dəyərlər gediş edən tərəf üçün xalla"},
    {"marks_legend",
     "qeydlər: ?! {doubtful} >= {d}, ? {bad} >= {b}, ?? {very_bad} >= {v}; şans: zərdən sonrakı "
     "ən yaxşı dəyər (0-ply) ilə bütün zərlər üzrə orta dəyərin fərqi"},
    {"game_heading", "Oyun {n}: {white} (ağ) - {black} (qara)"},
    {"game_score", ", hesab {score}"},
    {"score", "{name0} {points0} - {points1} {name1} ({target} xala qədər)"},
    {"game_result", "; nəticə: {result}"},
    {"col_turn", "gediş"},
    {"col_player", "oyunçu"},
    {"col_roll", "zər"},
    {"col_played", "oynanılıb"},
    {"col_mark", "qeyd"},
    {"col_error", "səhv"},
    {"col_best", "ən yaxşı gediş"},
    {"col_luck", "şans"},
    {"col_rank", "yer"},
    {"col_move", "gediş"},
    {"col_equity", "dəyər"},
    {"col_diff", "fərq"},
    {"col_win", "qələbə"},
    {"col_win_mars", "mars ilə qələbə"},
    {"col_lose_mars", "mars ilə məğlubiyyət"},
    {"forced", "məcburi"},
    {"summary", "Yekun"},
    {"summary_all", "Bütün oyunların yekunu"},
    {"summary_game", "Oyun {n}: yekun"},
    {"row_turns", "gedişlər"},
    {"row_decisions", "qərarlar (məcburi olmayan gedişlər)"},
    {"row_total_error", "ümumi səhv (xal)"},
    {"row_error_rate", "səhv tezliyi (qərar başına xalın mində biri)"},
    {"row_rating", "reytinq (500 × orta səhv)"},
    {"row_mwc_error", "ümumi səhv (matç şansı, %)"},
    {"row_luck", "ümumi şans (xal)"},
    {"row_result", "nəticə (xal)"},
    {"row_adjusted", "şansa görə düzəldilmiş nəticə"},
    {"row_phase", "{phase}: reytinq (qərarlar)"},
    {"bands", "reytinq səviyyələri"},
    {"bands_else", "əks halda"},
    {"marked_moves", "Qeyd olunmuş gedişlər"},
    {"turn_heading", "Oyun {game}, gediş {turn}: {name} ({side}, {phase}), zər {dice}"},
    {"played_losing", "oynanılıb {move} {symbol} ({mark}), itki {error}"},
    {"loses", "itki {error}"},
    {"mwc", "matç şansının {mwc}%-i"},
    {"played_marker", "(oynanılıb)"},
    {"played_move", "oynanılıb: {move}"},
    {"best_move", "ən yaxşı gediş: {move}"},
    {"html_title", "nardy: oyunun təhlili"},
    {"html_review", "Oyunun təhlili"},
    {"html_by", "Təhlil: {agent} ({method}); dəyərlər gediş edən tərəf üçün xalla."},
    {"html_marks", "Qeydlər: {doubtful} ≥ {d}, {bad} ≥ {b}, {very_bad} ≥ {v}."},
    {"html_rules", "Qaydalar: {rules}."},
    {"html_match", "Matç {target} xala qədər."},
    {"html_equity_of", "{name} oyunçusunun hər gedişdən sonrakı dəyəri"},
    {"graph_game", "oyun {n}"},
    {"graph_dot", "oyun {game}, gediş {turn}: {move} {symbol}, itki {error}"},
    {"svg_caption",
     "Ağlar: pip {wp}, çıxarılıb {wo}, başda {wh}    Qaralar: pip {bp}, çıxarılıb {bo}, başda {bh} "
     "   {to_move}"},
    {"svg_white_to_move", "gediş ağlarındır"},
    {"svg_black_to_move", "gediş qaralarındır"},
    {"svg_off", "çıxan"},
};

const Table kTurkish = {
    {"language", "Türkçe"},
    {"mark_doubtful", "şüpheli"},
    {"mark_bad", "kötü"},
    {"mark_very_bad", "çok kötü"},
    {"band_supernatural", "doğaüstü"},
    {"band_world_class", "dünya klası"},
    {"band_expert", "uzman"},
    {"band_advanced", "ileri"},
    {"band_intermediate", "orta"},
    {"band_casual", "amatör"},
    {"band_beginner", "acemi"},
    {"band_awful", "berbat"},
    {"phase_opening", "açılış"},
    {"phase_contact", "temas"},
    {"phase_race", "yarış"},
    {"phase_bearoff", "toplama"},
    {"white", "beyaz"},
    {"black", "siyah"},
    {"white_letter", "B"},
    {"black_letter", "S"},
    {"outcome_white", "beyaz"},
    {"outcome_black", "siyah"},
    {"outcome_oin", "{side} kazandı: oyun (1 puan)"},
    {"outcome_mars", "{side} kazandı: mars (2 puan)"},
    {"outcome_draw", "beraberlik"},
    {"unfinished", "bitmedi"},
    {"method_net", "sinir ağı değerlendirmesi, derinlik {ply}"},
    {"method_search", "expectimax araması, derinlik {ply}"},
    {"method_rollouts", "rollout (hamle başına {trials} oyun, tabakalı zarlar)"},
    {"review_by", "İnceleme: {agent} ({method}); değerler hamle yapan taraf için puan cinsinden"},
    {"marks_legend",
     "işaretler: ?! {doubtful} >= {d}, ? {bad} >= {b}, ?? {very_bad} >= {v}; şans: zardan sonraki "
     "en iyi değer (0-ply) ile tüm zarlar üzerindeki ortalamasının farkı"},
    {"game_heading", "Oyun {n}: {white} (beyaz) - {black} (siyah)"},
    {"game_score", ", skor {score}"},
    {"score", "{name0} {points0} - {points1} {name1} ({target} puanlık maç)"},
    {"game_result", "; sonuç: {result}"},
    {"col_turn", "hamle"},
    {"col_player", "oyuncu"},
    {"col_roll", "zar"},
    {"col_played", "oynanan"},
    {"col_mark", "işaret"},
    {"col_error", "hata"},
    {"col_best", "en iyi hamle"},
    {"col_luck", "şans"},
    {"col_rank", "sıra"},
    {"col_move", "hamle"},
    {"col_equity", "değer"},
    {"col_diff", "fark"},
    {"col_win", "kazanma"},
    {"col_win_mars", "mars ile kazanma"},
    {"col_lose_mars", "mars ile kaybetme"},
    {"forced", "zorunlu"},
    {"summary", "Özet"},
    {"summary_all", "Tüm oyunların özeti"},
    {"summary_game", "Oyun {n} özeti"},
    {"row_turns", "hamleler"},
    {"row_decisions", "kararlar (zorunlu olmayan hamleler)"},
    {"row_total_error", "toplam hata (puan)"},
    {"row_error_rate", "hata oranı (karar başına binde bir puan)"},
    {"row_rating", "derece (500 × ortalama hata)"},
    {"row_mwc_error", "toplam hata (maç kazanma şansı, %)"},
    {"row_luck", "toplam şans (puan)"},
    {"row_result", "sonuç (puan)"},
    {"row_adjusted", "şansa göre düzeltilmiş sonuç"},
    {"row_phase", "{phase}: derece (kararlar)"},
    {"bands", "derece aralıkları"},
    {"bands_else", "aksi halde"},
    {"marked_moves", "İşaretli hamleler"},
    {"turn_heading", "Oyun {game}, hamle {turn}: {name} ({side}, {phase}), zar {dice}"},
    {"played_losing", "oynanan {move} {symbol} ({mark}), kayıp {error}"},
    {"loses", "kayıp {error}"},
    {"mwc", "maç şansı %{mwc}"},
    {"played_marker", "(oynanan)"},
    {"played_move", "oynanan: {move}"},
    {"best_move", "en iyi hamle: {move}"},
    {"html_title", "nardy: oyun incelemesi"},
    {"html_review", "Oyun incelemesi"},
    {"html_by", "İnceleme: {agent} ({method}); değerler hamle yapan taraf için puan cinsinden."},
    {"html_marks", "İşaretler: {doubtful} ≥ {d}, {bad} ≥ {b}, {very_bad} ≥ {v}."},
    {"html_rules", "Kurallar: {rules}."},
    {"html_match", "{target} puanlık maç."},
    {"html_equity_of", "{name} oyuncusunun her hamleden sonraki değeri"},
    {"graph_game", "oyun {n}"},
    {"graph_dot", "oyun {game}, hamle {turn}: {move} {symbol}, kayıp {error}"},
    {"svg_caption",
     "Beyaz: pip {wp}, toplanan {wo}, başta {wh}    Siyah: pip {bp}, toplanan {bo}, başta {bh}    "
     "{to_move}"},
    {"svg_white_to_move", "sıra beyazda"},
    {"svg_black_to_move", "sıra siyahta"},
    {"svg_off", "toplanan"},
};

struct Language {
  std::string_view code;
  const Table* table;
};

const std::vector<Language>& languages() {
  static const std::vector<Language> all = {{"en", &kEnglish},
                                            {"ru", &kRussian},
                                            {"uk", &kUkrainian},
                                            {"az", &kAzerbaijani},
                                            {"tr", &kTurkish}};
  return all;
}

// "very bad" -> "very_bad".
std::string key_of(std::string_view prefix, std::string_view name) {
  std::string k(prefix);
  for (char c : name) k += c == ' ' ? '_' : c;
  return k;
}

}  // namespace

ReviewStrings::ReviewStrings(std::string_view code, const Table& table)
    : code_(code), table_(&table) {}

std::string_view ReviewStrings::get(std::string_view key) const {
  for (const auto& [k, v] : *table_)
    if (k == key) return v;
  throw Error("review strings: language '" + std::string(code_) + "' has no key '" +
              std::string(key) + "'");
}

std::string ReviewStrings::operator()(std::string_view key, Args args) const {
  const std::string_view text = get(key);
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '{') {
      const size_t end = text.find('}', i);
      if (end != std::string_view::npos) {
        const std::string_view name = text.substr(i + 1, end - i - 1);
        const auto it =
            std::find_if(args.begin(), args.end(), [&](const auto& a) { return a.first == name; });
        if (it != args.end()) {
          out += it->second;
          i = end + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

std::string ReviewStrings::mark(Mark m) const {
  return m == Mark::None ? std::string() : std::string(get(key_of("mark_", mark_name(m))));
}

std::string ReviewStrings::band(double rating) const {
  return std::string(get(key_of("band_", rating_band(rating))));
}

std::string ReviewStrings::phase(Phase p) const {
  return std::string(get(key_of("phase_", phase_name(p))));
}

std::string ReviewStrings::side(Side s) const {
  return std::string(get(s == Side::White ? "white" : "black"));
}

std::string ReviewStrings::side_letter(Side s) const {
  return std::string(get(s == Side::White ? "white_letter" : "black_letter"));
}

std::string ReviewStrings::outcome(const Outcome& o) const {
  if (o.is_draw()) return (*this)("outcome_draw");
  const std::string side(get(*o.winner == Side::White ? "outcome_white" : "outcome_black"));
  return (*this)(o.is_mars() ? "outcome_mars" : "outcome_oin", {{"side", side}});
}

std::string ReviewStrings::method(const std::string& m) const {
  // The methods of selfplay/evaluation/analysis.cpp.
  int n = 0, used = 0;
  if (std::sscanf(m.c_str(), "%d-ply net evaluation%n", &n, &used) == 1 &&
      used == static_cast<int>(m.size()))
    return (*this)("method_net", {{"ply", std::to_string(n)}});
  used = 0;
  if (std::sscanf(m.c_str(), "%d-ply expectimax search%n", &n, &used) == 1 &&
      used == static_cast<int>(m.size()))
    return (*this)("method_search", {{"ply", std::to_string(n)}});
  long long trials = 0;
  used = 0;
  if (std::sscanf(m.c_str(), "rollouts (%lld trials per move, stratified dice)%n", &trials,
                  &used) == 1 &&
      used == static_cast<int>(m.size()))
    return (*this)("method_rollouts", {{"trials", std::to_string(trials)}});
  return m;
}

const ReviewStrings& review_strings(std::string_view code) {
  static const std::vector<ReviewStrings> all = [] {
    std::vector<ReviewStrings> v;
    for (const Language& l : languages()) v.emplace_back(l.code, *l.table);
    return v;
  }();
  for (const ReviewStrings& s : all)
    if (s.code() == code) return s;
  throw Error("unknown language '" + std::string(code) + "' (known: " + review_languages_list() +
              ")");
}

const std::vector<std::string_view>& review_languages() {
  static const std::vector<std::string_view> codes = [] {
    std::vector<std::string_view> v;
    for (const Language& l : languages()) v.push_back(l.code);
    return v;
  }();
  return codes;
}

std::string review_languages_list() {
  std::string s;
  for (const Language& l : languages()) {
    if (!s.empty()) s += ", ";
    s += std::string(l.code) + " (" + std::string(ReviewStrings(l.code, *l.table).name()) + ")";
  }
  return s;
}

const ReviewStrings::Table& review_string_table(std::string_view code) {
  for (const Language& l : languages())
    if (l.code == code) return *l.table;
  throw Error("unknown language '" + std::string(code) + "' (known: " + review_languages_list() +
              ")");
}

size_t text_width(std::string_view s) {
  size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

std::string pad_right(std::string_view s, size_t width) {
  const size_t w = text_width(s);
  return std::string(s) + std::string(w < width ? width - w : 0, ' ');
}

std::string pad_left(std::string_view s, size_t width) {
  const size_t w = text_width(s);
  return std::string(w < width ? width - w : 0, ' ') + std::string(s);
}

std::string clip(std::string_view s, size_t width) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n++ == width)
      return std::string(s.substr(0, i));
  }
  return std::string(s);
}

}  // namespace nardy
