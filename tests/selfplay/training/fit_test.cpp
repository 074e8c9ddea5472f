// Supervised fitting (nn/supervised_fit.h, selfplay/training/fit.h): on targets made by a teacher
// net, the held-out loss goes down, the fit is reproducible, the saved checkpoint loads and
// evaluates as the fitted LibTorch model (and the fast kernels agree), and bad input is refused.
#include "selfplay/training/fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "core/error.h"
#include "nn/encoder_extended.h"
#include "nn/supervised_fit.h"
#include "selfplay/search/net_agent.h"
#include "selfplay/training/label_file.h"
#include "tests/nn/test_nets.h"
#include "tests/support/temp_dir.h"
#include "tests/support/error_of.h"

namespace nardy {
namespace {

NetShape small_shape(int hidden) {
  NetShape s;
  s.encoder = "raw-v1";
  s.hidden = {hidden};
  return s;
}

// Positions of many seeded games with the teacher's evaluations as targets.
FitData teacher_data(const ValueNet& teacher, uint64_t seed, int games) {
  const auto positions = testing::sample_positions(seed, games);
  FitData d;
  d.inputs = testing::encode_all(teacher.encoder(), positions);
  std::vector<Evaluation> out(positions.size());
  teacher.evaluate_batch(d.inputs, static_cast<int>(positions.size()), out);
  for (const auto& e : out) {
    const auto a = e.as_array();
    d.targets.insert(d.targets.end(), a.begin(), a.end());
  }
  return d;
}

using testing::error_of;

TEST(SupervisedFit, HeldOutLossDecreasesAndTheBestEpochIsKept) {
  const ValueNet teacher = ValueNet::create(small_shape(24), 7);
  const FitData train = teacher_data(teacher, 1, 12), heldout = teacher_data(teacher, 2, 4);
  ValueNet student = ValueNet::create(small_shape(16), 1);
  FitOptions o;
  o.lr = 3e-3;
  o.batch = 32;
  o.max_epochs = 25;
  o.patience = 25;
  std::vector<FitEpoch> seen;
  const FitResult r =
      fit_value_net(student, train, heldout, o, [&](const FitEpoch& e) { seen.push_back(e); });
  ASSERT_EQ(seen.size(), r.epochs.size());
  EXPECT_EQ(r.epochs.front().epoch, 0);
  EXPECT_EQ(r.epochs.size(), 26u);
  const double initial = r.epochs.front().heldout_loss;
  EXPECT_LT(r.best_heldout(), 0.5 * initial) << "initial " << initial;
  EXPECT_GT(r.best_epoch, 0);
  // The net holds the best epoch's parameters.
  EXPECT_NEAR(fit_loss(student, heldout), r.best_heldout(), 1e-6);
  // Reproducible: the same seed gives the same parameters, another seed others.
  ValueNet again = ValueNet::create(small_shape(16), 1);
  fit_value_net(again, train, heldout, o);
  ValueNet reseeded = ValueNet::create(small_shape(16), 1);
  FitOptions o2 = o;
  o2.seed = 2;
  fit_value_net(reseeded, train, heldout, o2);
  const auto a = student.layers(), b = again.layers(), c = reseeded.layers();
  EXPECT_TRUE(std::equal(a[0].weight, a[0].weight + a[0].in * a[0].out, b[0].weight));
  EXPECT_FALSE(std::equal(a[0].weight, a[0].weight + a[0].in * a[0].out, c[0].weight));
}

TEST(SupervisedFit, SgdAndEarlyStopping) {
  const ValueNet teacher = ValueNet::create(small_shape(24), 7);
  const FitData train = teacher_data(teacher, 1, 6), heldout = teacher_data(teacher, 2, 2);
  ValueNet student = ValueNet::create(small_shape(16), 1);
  FitOptions o;
  o.optimizer = "sgd";
  o.lr = 50;  // far too large: the held-out loss stops improving at once
  o.max_epochs = 40;
  o.patience = 2;
  const FitResult r = fit_value_net(student, train, heldout, o);
  EXPECT_TRUE(r.stopped_early);
  EXPECT_LT(r.epochs.size(), 41u);
  EXPECT_EQ(static_cast<int>(r.epochs.size()) - 1, r.best_epoch + o.patience);
  EXPECT_NEAR(fit_loss(student, heldout), r.best_heldout(), 1e-6);
}

TEST(SupervisedFit, LrDropsGoOnFromTheBestEpochAtALowerRate) {
  const ValueNet teacher = ValueNet::create(small_shape(24), 7);
  const FitData train = teacher_data(teacher, 1, 6), heldout = teacher_data(teacher, 2, 2);
  FitOptions o;
  o.optimizer = "sgd";
  o.lr = 50;  // far too large: a plateau at once, then lower rates that learn
  o.max_epochs = 40;
  o.patience = 2;
  ValueNet plain = ValueNet::create(small_shape(16), 1);
  const FitResult stopped = fit_value_net(plain, train, heldout, o);
  o.lr_drops = 3;
  ValueNet dropping = ValueNet::create(small_shape(16), 1);
  const FitResult r = fit_value_net(dropping, train, heldout, o);
  EXPECT_GE(r.lr_drops, 1);
  EXPECT_LE(r.lr_drops, 3);
  // Each epoch's rate: 50 until the first plateau, then 5, 0.5, ...; never back up.
  int drops_seen = 0;
  for (size_t i = 1; i < r.epochs.size(); ++i) {
    EXPECT_NEAR(r.epochs[i].lr, 50 * std::pow(0.1, drops_seen), 1e-9) << "epoch " << i;
    if (i + 1 < r.epochs.size() && r.epochs[i + 1].lr < r.epochs[i].lr) ++drops_seen;
  }
  EXPECT_EQ(drops_seen, r.lr_drops);
  // The epochs before the first drop are the plain fit's, and the lower rates learn.
  for (size_t i = 0; i < stopped.epochs.size(); ++i)
    EXPECT_EQ(r.epochs[i].heldout_loss, stopped.epochs[i].heldout_loss) << "epoch " << i;
  EXPECT_GT(r.epochs.size(), stopped.epochs.size());
  EXPECT_LT(r.best_heldout(), stopped.best_heldout());
  EXPECT_NEAR(fit_loss(dropping, heldout), r.best_heldout(), 1e-6);
  o.lr_drop = 1;
  EXPECT_NE(error_of([&] { fit_value_net(dropping, train, heldout, o); }).find("lr drop"),
            std::string::npos);
}

// The sibling term of a row (nn/supervised_fit.h), from plain evaluations: the mean over rows of
// ((E - T) - mean over the row's group of (E - T))².
double sibling_term(const ValueNet& net, const FitData& d) {
  std::vector<Evaluation> out(static_cast<size_t>(d.rows()));
  net.evaluate_batch(d.inputs, static_cast<int>(d.rows()), out);
  std::vector<double> diff(out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const Evaluation t{d.targets[4 * i], d.targets[4 * i + 1], d.targets[4 * i + 2],
                       d.targets[4 * i + 3]};
    diff[i] = static_cast<double>(out[i].equity()) - static_cast<double>(t.equity());
  }
  double sum = 0;
  for (size_t i = 0; i < diff.size();) {
    size_t j = i;
    double mean = 0;
    while (j < diff.size() && d.group[j] == d.group[i]) mean += diff[j++];
    mean /= static_cast<double>(j - i);
    for (; i < j; ++i) sum += (diff[i] - mean) * (diff[i] - mean);
  }
  return sum / static_cast<double>(diff.size());
}

TEST(SupervisedFit, SiblingWeightAddsTheErrorRelativeToTheGroup) {
  const ValueNet teacher = ValueNet::create(small_shape(24), 7);
  FitData train = teacher_data(teacher, 1, 6), heldout = teacher_data(teacher, 2, 2);
  // Groups of one: the term is 0, and the fit is the plain one bit for bit.
  for (FitData* d : {&train, &heldout})
    for (int64_t i = 0; i < d->rows(); ++i) d->group.push_back(i);
  FitOptions o;
  o.lr = 3e-3;
  o.batch = 32;
  o.max_epochs = 4;
  o.patience = 4;
  ValueNet plain = ValueNet::create(small_shape(16), 1), singles = plain.clone();
  const FitResult rp = fit_value_net(plain, train, heldout, o);
  o.sibling_weight = 1;
  const FitResult rs = fit_value_net(singles, train, heldout, o);
  const auto a = plain.layers(), b = singles.layers();
  EXPECT_TRUE(std::equal(a[0].weight, a[0].weight + a[0].in * a[0].out, b[0].weight));
  EXPECT_EQ(rp.best_heldout(), rs.best_heldout());
  // Groups of 5 rows (the last shorter): the held-out loss is the plain loss plus w times the
  // term, and fitting with a large weight makes the term smaller than fitting without it.
  for (FitData* d : {&train, &heldout})
    for (int64_t i = 0; i < d->rows(); ++i) d->group[static_cast<size_t>(i)] = i / 5;
  ValueNet start = ValueNet::create(small_shape(16), 1);
  o.sibling_weight = 3;
  o.max_epochs = 1;
  FitResult r = fit_value_net(start, train, heldout, o);
  const ValueNet fresh = ValueNet::create(small_shape(16), 1);
  EXPECT_NEAR(r.epochs[0].heldout_loss, fit_loss(fresh, heldout) + 3 * sibling_term(fresh, heldout),
              1e-6);
  o.max_epochs = 25;
  o.patience = 25;
  o.sibling_weight = 0;
  ValueNet without = ValueNet::create(small_shape(16), 1), with = without.clone();
  fit_value_net(without, train, heldout, o);
  o.sibling_weight = 20;
  fit_value_net(with, train, heldout, o);
  EXPECT_LT(sibling_term(with, heldout), sibling_term(without, heldout));
  // A weight without groups is refused.
  FitData ungrouped = teacher_data(teacher, 3, 1);
  EXPECT_NE(error_of([&] { fit_value_net(with, ungrouped, ungrouped, o); }).find("sibling group"),
            std::string::npos);
}

TEST(SupervisedFit, BadOptionsAndData) {
  ValueNet net = ValueNet::create(small_shape(8), 1);
  const FitData d = teacher_data(net, 1, 1);
  FitOptions o;
  o.optimizer = "lbfgs";
  EXPECT_NE(error_of([&] { fit_value_net(net, d, d, o); }).find("adam or sgd"), std::string::npos);
  FitData wrong = d;
  wrong.inputs.pop_back();
  EXPECT_NE(error_of([&] { fit_value_net(net, wrong, d, {}); }).find("training data"),
            std::string::npos);
  EXPECT_NE(error_of([&] { fit_value_net(net, d, FitData{}, {}); }).find("no held-out"),
            std::string::npos);
}

// A label file of teacher targets, `games` games of 8 positions each.
void write_teacher_labels(const std::string& path, const ValueNet& teacher, int games,
                          const Rules& rules = Rules{}, const std::string& seed = "") {
  LabelHeader h;
  h.fields = {{"labeler", "teacher"}, {"rollouts", "0"}, {"rules", rules.to_string()}};
  if (!seed.empty()) h.fields.emplace_back("seed", seed);
  std::string bytes = h.to_text();
  const auto positions = testing::sample_positions(5, 8);
  for (int g = 0; g < games; ++g) {
    for (int i = 0; i < 8; ++i) {
      LabelRecord r;
      r.position = positions[(g * 8 + i) % positions.size()];
      r.game = static_cast<uint32_t>(g);
      r.source = search_source(0);
      r.target = teacher.evaluate(r.position);
      append_label_record(bytes, r);
    }
    append_label_record(bytes, LabelRecord{Position{}, 0, static_cast<uint32_t>(g), {}}, true);
  }
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(FitRun, CheckpointLoadsAndEvaluatesAsTheFittedModel) {
  testing::TempDir tmp;
  const ValueNet teacher = ValueNet::create(small_shape(24), 7);
  write_teacher_labels(tmp.file("t.lbl"), teacher, 60);
  const ValueNet init = ValueNet::create(small_shape(16), 3);
  CheckpointInfo info;
  info.games = 1234;
  info.extra["eval"] = "{}";  // the init's evaluation: not carried over
  init.save(tmp.file("init.pt"), info);

  FitRunOptions o;
  o.data = {tmp.file("t.lbl")};
  o.init = tmp.file("init.pt");
  o.out = tmp.file("out.pt");
  o.holdout = 0.2;
  o.fit.lr = 3e-3;
  o.fit.batch = 16;
  o.fit.max_epochs = 8;
  const FitRunResult r = run_fit(o);
  EXPECT_EQ(r.train_positions + r.heldout_positions, 480);
  EXPECT_EQ(r.train_games + r.heldout_games, 60);
  EXPECT_GT(r.heldout_games, 3);
  EXPECT_LT(r.fit.best_heldout(), r.fit.epochs.front().heldout_loss);

  const ValueNet fitted = ValueNet::load(o.out);
  EXPECT_EQ(fitted.shape(), init.shape());
  EXPECT_EQ(fitted.info().games, 1234);
  EXPECT_EQ(fitted.info().extra.at("fit.labeler"), "teacher");
  EXPECT_EQ(fitted.info().extra.count("eval"), 0u);
  EXPECT_EQ(fitted.info().extra.at("fit.best_epoch"), std::to_string(r.fit.best_epoch));
  // Its held-out loss is the fit's best; the fast kernels agree with LibTorch on it.
  const auto positions = testing::sample_positions(5, 8);
  std::vector<Evaluation> torch_out(positions.size()), fast_out(positions.size());
  const auto x = testing::encode_all(fitted.encoder(), positions);
  fitted.evaluate_batch(x, static_cast<int>(positions.size()), torch_out);
  NetEvaluator fast(fitted, "fast");
  fast.evaluate(positions.front(), positions, fast_out);
  for (size_t i = 0; i < positions.size(); ++i)
    EXPECT_NEAR(torch_out[i].equity(), fast_out[i].equity(), 1e-5);
  // The fit moved the net: it is closer to the teacher than the initial net.
  FitData all;
  all.inputs = x;
  for (const auto& p : positions) {
    const auto a = teacher.evaluate(p).as_array();
    all.targets.insert(all.targets.end(), a.begin(), a.end());
  }
  EXPECT_LT(fit_loss(fitted, all), fit_loss(init, all));
  // A fresh net of the given shape works too.
  FitRunOptions fresh = o;
  fresh.init.clear();
  fresh.shape = small_shape(12);
  fresh.out = tmp.file("fresh.pt");
  run_fit(fresh);
  EXPECT_EQ(ValueNet::load(fresh.out).shape().hidden, std::vector<int>{12});
}

TEST(FitRun, WidensTheInitFirst) {
  testing::TempDir tmp;
  const ValueNet teacher = ValueNet::create(small_shape(24), 7);
  write_teacher_labels(tmp.file("t.lbl"), teacher, 30);
  const ValueNet init = ValueNet::create(small_shape(8), 3);
  init.save(tmp.file("init.pt"), CheckpointInfo{});
  FitRunOptions o;
  o.data = {tmp.file("t.lbl")};
  o.init = tmp.file("init.pt");
  o.out = tmp.file("wide.pt");
  o.widen = {20};
  o.fit.batch = 16;
  o.fit.max_epochs = 3;
  const FitRunResult r = run_fit(o);
  const ValueNet wide = ValueNet::load(o.out);
  EXPECT_EQ(wide.shape().hidden, std::vector<int>{20});
  EXPECT_EQ(wide.info().extra.at("fit.widened"), "8 -> 20");
  // It starts from the init's values: the first epoch's held-out loss before any step is the
  // init's own.
  FitRunOptions same = o;
  same.widen.clear();
  same.out = tmp.file("same.pt");
  const FitRunResult s = run_fit(same);
  EXPECT_NEAR(r.fit.epochs.front().heldout_loss, s.fit.epochs.front().heldout_loss, 1e-7);
  EXPECT_EQ(ValueNet::load(same.out).info().extra.count("fit.widened"), 0u);
  EXPECT_LT(r.fit.best_heldout(), r.fit.epochs.front().heldout_loss);
  // Widening needs an init, and widths the init can grow to.
  o.init.clear();
  o.shape = small_shape(8);
  EXPECT_NE(error_of([&] { run_fit(o); }).find("--init"), std::string::npos);
  o.init = tmp.file("init.pt");
  o.widen = {4};
  EXPECT_NE(error_of([&] { run_fit(o); }).find("cannot shrink"), std::string::npos);
}

// --encoder with an init: the init gets mobility-v1's inputs first (zero weights on the new ones,
// so the fit starts from its values), the fit uses them, and the checkpoint says so; an init's
// own fit.encoded / fit.widened / fit.recipe entries (how the init was made) do not carry over,
// while the caller's extra entries are written.
TEST(FitRun, ReencodesTheInitFirst) {
  testing::TempDir tmp;
  NetShape teacher_shape = small_shape(24);
  teacher_shape.encoder = "mobility-v1";
  const ValueNet teacher = ValueNet::create(teacher_shape, 7);
  write_teacher_labels(tmp.file("t.lbl"), teacher, 30);
  NetShape init_shape = small_shape(8);
  init_shape.encoder = "extended-v1";
  CheckpointInfo info;
  info.extra["fit.encoded"] = "raw-v1 -> extended-v1";
  info.extra["fit.widened"] = "4 -> 8";
  info.extra["fit.recipe"] = "the init's recipe";
  ValueNet::create(init_shape, 3).save(tmp.file("init.pt"), info);
  FitRunOptions o;
  o.data = {tmp.file("t.lbl")};
  o.init = tmp.file("init.pt");
  o.out = tmp.file("mob.pt");
  o.encoder = "mobility";
  o.extra["run"] = "the caller's run";
  o.fit.batch = 16;
  o.fit.max_epochs = 3;
  const FitRunResult r = run_fit(o);
  const ValueNet mob = ValueNet::load(o.out);
  EXPECT_EQ(mob.info().extra.count("fit.recipe"), 0u);
  EXPECT_EQ(mob.info().extra.at("run"), "the caller's run");
  EXPECT_EQ(mob.shape().encoder, "mobility-v1");
  EXPECT_EQ(mob.shape().hidden, std::vector<int>{8});
  EXPECT_EQ(mob.info().extra.at("fit.encoded"), "extended-v1 -> mobility-v1");
  EXPECT_EQ(mob.info().extra.count("fit.widened"), 0u);
  EXPECT_LT(r.fit.best_heldout(), r.fit.epochs.front().heldout_loss);
  const auto layer = mob.layers().front();
  float moved = 0;
  for (int i = extended_v1::kNumInputs; i < layer.in; ++i)
    for (int j = 0; j < layer.out; ++j)
      moved += std::abs(layer.weight[static_cast<size_t>(i) * layer.out + j]);
  EXPECT_GT(moved, 0.0f);
  // Before any step the re-encoded net's held-out loss is the init's own.
  FitRunOptions same = o;
  same.encoder.clear();
  same.out = tmp.file("same.pt");
  const FitRunResult s = run_fit(same);
  EXPECT_NEAR(r.fit.epochs.front().heldout_loss, s.fit.epochs.front().heldout_loss, 1e-7);
  EXPECT_EQ(ValueNet::load(same.out).info().extra.count("fit.encoded"), 0u);
  EXPECT_EQ(ValueNet::load(same.out).info().extra.count("fit.widened"), 0u);
  // An encoder that does not extend the init's is refused, naming both.
  o.encoder = "raw";
  const std::string e = error_of([&] { run_fit(o); });
  EXPECT_NE(e.find("'raw-v1' does not extend the net's encoder 'extended-v1'"), std::string::npos)
      << e;
  EXPECT_NE(e.find("init.pt"), std::string::npos) << e;
}

TEST(FitRun, ClearErrors) {
  testing::TempDir tmp;
  FitRunOptions o;
  o.data = {tmp.file("missing.lbl")};
  o.out = tmp.file("out.pt");
  EXPECT_NE(error_of([&] { run_fit(o); }).find("missing.lbl"), std::string::npos);
  const ValueNet teacher = ValueNet::create(small_shape(8), 7);
  write_teacher_labels(tmp.file("one.lbl"), teacher, 1);
  o.data = {tmp.file("one.lbl")};
  o.holdout = 0.5;
  const std::string e = error_of([&] { run_fit(o); });
  EXPECT_NE(e.find("label more games"), std::string::npos) << e;
  EXPECT_FALSE(std::filesystem::exists(o.out));
  o.data.clear();
  EXPECT_NE(error_of([&] { run_fit(o); }).find("no label file"), std::string::npos);
  // Files labelled under different rules are not one data set.
  Rules draws;
  draws.last_roll_draw = true;
  write_teacher_labels(tmp.file("draws.lbl"), teacher, 4, draws);
  o.data = {tmp.file("one.lbl"), tmp.file("draws.lbl")};
  const std::string r = error_of([&] { run_fit(o); });
  EXPECT_NE(r.find("draws.lbl"), std::string::npos) << r;
  EXPECT_NE(r.find("one.lbl"), std::string::npos) << r;
  EXPECT_FALSE(std::filesystem::exists(o.out));
}

TEST(FitRun, SeveralFilesAreOneDataSetAndKeepTheFirstFilesSplit) {
  testing::TempDir tmp;
  const ValueNet teacher = ValueNet::create(small_shape(8), 7);
  write_teacher_labels(tmp.file("a.lbl"), teacher, 30);
  write_teacher_labels(tmp.file("b.lbl"), teacher, 20);
  FitRunOptions o;
  o.shape = small_shape(6);
  o.fit.max_epochs = 1;
  o.out = tmp.file("a.pt");
  o.data = {tmp.file("a.lbl")};
  const FitRunResult a = run_fit(o);
  o.data = {tmp.file("b.lbl")};
  o.out = tmp.file("b.pt");
  const FitRunResult b = run_fit(o);
  o.data = {tmp.file("a.lbl"), tmp.file("b.lbl")};
  o.out = tmp.file("ab.pt");
  const FitRunResult ab = run_fit(o);
  EXPECT_EQ(ab.train_positions + ab.heldout_positions,
            a.train_positions + a.heldout_positions + b.train_positions + b.heldout_positions);
  EXPECT_EQ(ab.train_games + ab.heldout_games, 50);
  // Game g of the second file is another game than game g of the first.
  o.data = {tmp.file("b.lbl"), tmp.file("b.lbl")};
  o.out = tmp.file("bb.pt");
  const FitRunResult bb = run_fit(o);
  EXPECT_EQ(bb.train_games + bb.heldout_games, 40);
  EXPECT_EQ(bb.train_positions + bb.heldout_positions,
            2 * (b.train_positions + b.heldout_positions));
  const auto extra = ValueNet::load(tmp.file("ab.pt")).info().extra;
  EXPECT_EQ(extra.at("fit.data"), tmp.file("a.lbl") + "; " + tmp.file("b.lbl"));
}

// --split-seed: a file's held-out games depend on the split seed, its labelling seed and the
// game only, not on --seed, the other files or their order (the same held-out positions: the
// same count and the same initial held-out loss of one init); without it they follow the
// file's place in the list. A file without a labelling seed is refused by name.
TEST(FitRun, SplitSeedHoldsOutTheSameGamesOfAFileWhateverTheOtherFiles) {
  testing::TempDir tmp;
  const ValueNet teacher = ValueNet::create(small_shape(8), 7);
  const std::string a = tmp.file("a.lbl"), b = tmp.file("b.lbl");
  write_teacher_labels(a, teacher, 40, Rules{}, "11");
  write_teacher_labels(b, teacher, 30, Rules{}, "12");
  ValueNet::create(small_shape(6), 3).save(tmp.file("init.pt"), CheckpointInfo{});
  auto fit = [&](std::vector<std::string> data, uint64_t seed, uint64_t split_seed) {
    FitRunOptions o;
    o.init = tmp.file("init.pt");
    o.fit.max_epochs = 1;
    o.fit.seed = seed;
    o.split_seed = split_seed;
    o.holdout = 0.3;
    o.data = std::move(data);
    o.out = tmp.file("out.pt");
    return run_fit(o);
  };
  auto initial = [](const FitRunResult& r) { return r.fit.epochs.front().heldout_loss; };
  const FitRunResult ab = fit({a, b}, 1, 5), ba = fit({b, a}, 2, 5);
  EXPECT_EQ(ab.heldout_positions, ba.heldout_positions);
  EXPECT_EQ(ab.heldout_games, ba.heldout_games);
  EXPECT_NEAR(initial(ab), initial(ba), 1e-6 * initial(ab));
  const FitRunResult only_a = fit({a}, 3, 5), only_b = fit({b}, 4, 5);
  EXPECT_EQ(only_a.heldout_positions + only_b.heldout_positions, ab.heldout_positions);
  // Two files of one labelling seed hold out the same game numbers, counted as other games.
  const FitRunResult bb = fit({b, b}, 1, 5);
  EXPECT_EQ(bb.heldout_positions, 2 * only_b.heldout_positions);
  EXPECT_EQ(bb.heldout_games, 2 * only_b.heldout_games);
  EXPECT_EQ(bb.train_games + bb.heldout_games, 60);
  EXPECT_EQ(ValueNet::load(tmp.file("out.pt")).info().extra.at("fit.split_seed"), "5");
  // Another split seed holds out other games; without one the order of the files matters.
  const FitRunResult other = fit({a, b}, 1, 6);
  EXPECT_NE(initial(other), initial(ab));
  const FitRunResult ab0 = fit({a, b}, 1, 0), ba0 = fit({b, a}, 1, 0);
  EXPECT_NE(initial(ab0), initial(ba0));
  EXPECT_EQ(ValueNet::load(tmp.file("out.pt")).info().extra.count("fit.split_seed"), 0u);
  // Files without a labelling seed, or with a bad one.
  write_teacher_labels(tmp.file("n.lbl"), teacher, 30);
  std::string e = error_of([&] { fit({a, tmp.file("n.lbl")}, 1, 5); });
  EXPECT_NE(e.find("n.lbl"), std::string::npos) << e;
  EXPECT_NE(e.find("no 'seed'"), std::string::npos) << e;
  EXPECT_NE(e.find("fit.holdout_stable"), std::string::npos) << e;
  write_teacher_labels(tmp.file("x.lbl"), teacher, 30, Rules{}, "12x");
  e = error_of([&] { fit({tmp.file("x.lbl")}, 1, 5); });
  EXPECT_NE(e.find("x.lbl"), std::string::npos) << e;
  EXPECT_NE(e.find("'12x'"), std::string::npos) << e;
  EXPECT_NO_THROW(fit({tmp.file("n.lbl")}, 1, 0));
}

}  // namespace
}  // namespace nardy
