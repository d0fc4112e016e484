// Rounds that disagree are timed again, a bounded number of times, and the latest rounds are
// kept; a fake round timer plays given figures instead of the clock.

#include "layoutopt/timing/steady_rounds.h"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace layoutopt::timing;

namespace {

/// Plays `figures` one round at a time (one series), counting the rounds asked for.
struct ScriptedRounds {
  std::vector<double> figures;
  size_t played = 0;
  RoundTimer timer() {
    return [this] { return std::vector<double>{figures.at(played++)}; };
  }
};

}  // namespace

TEST_CASE("rounds that agree within the tolerance are timed once") {
  ScriptedRounds script{{10.0, 10.5, 11.0}};
  const SteadyRounds rounds = time_steady_rounds({.rounds = 3, .max_retimed = 3}, script.timer());
  CHECK(script.played == 3);
  CHECK(rounds.retimed == 0);
  CHECK(rounds.steady);
  CHECK(rounds.swing == doctest::Approx(1.1));
  CHECK(rounds.series(0) == std::vector<double>{10.0, 10.5, 11.0});
}

TEST_CASE("a slow spell in one round is timed again and the latest rounds are kept, not the fastest") {
  // The first round ran in a slow spell (14 over 10: 1.4x); once it passed, the rounds agree.
  ScriptedRounds script{{14.0, 10.0, 10.2, 10.1}};
  const SteadyRounds rounds = time_steady_rounds({.rounds = 3, .max_retimed = 3}, script.timer());
  CHECK(script.played == 4);
  CHECK(rounds.retimed == 1);
  CHECK(rounds.steady);
  CHECK(rounds.series(0) == std::vector<double>{10.0, 10.2, 10.1});
}

TEST_CASE("re-timing is bounded, and rounds still swinging are reported as not steady") {
  ScriptedRounds script{{10.0, 20.0, 10.0, 20.0, 10.0, 20.0, 10.0}};
  const SteadyRounds rounds = time_steady_rounds({.rounds = 3, .max_retimed = 2}, script.timer());
  CHECK(script.played == 5);
  CHECK(rounds.retimed == 2);
  CHECK_FALSE(rounds.steady);
  CHECK(rounds.swing == doctest::Approx(2.0));
  CHECK(rounds.kept.size() == 3);
}

TEST_CASE("the swing is the worst series': one network swinging re-times all side by side") {
  CHECK(round_swing({{10.0, 5.0}, {10.5, 6.0}}) == doctest::Approx(1.2));
  CHECK(round_swing({}) == 1.0);
  CHECK_THROWS_AS((void)time_steady_rounds({.rounds = 0}, [] { return std::vector<double>{1.0}; }), std::invalid_argument);
}
