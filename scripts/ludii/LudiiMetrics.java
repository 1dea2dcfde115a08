// Runs Ludii's own Evaluation metrics on one game with uniformly random playouts and prints
// them, for docs/compare-ludii.md. Written for stickdice against Ludii's public API (Ludii
// 1.3.13, github.com/Ludeme/Ludii); nothing here is taken from Ludii's sources. Not part of the
// build or of CI (CI needs no Java): scripts/ludii-metrics.sh compiles and runs it.
//
// Usage: java -cp <Ludii classes> LudiiMetrics FILE.lud TRIALS SEED EVAL MAXSECONDS APPLY [option ...]
//   FILE.lud     the game's .lud file (Common/res/lud/...)
//   TRIALS       random playouts for every metric except the state-evaluation ones
//   SEED         seeds the dice (each trial's context RNG) and the random move choice
//   EVAL         how many of the trials the state-evaluation metrics use (0 = skip them)
//   MAXSECONDS   stop playing new trials after this much wall time (the count played is printed)
//   APPLY        yes: also compute the other metrics by Metric.apply (one replay per metric:
//                slow), to check that both of Ludii's paths agree; no: incremental only
//   option       Ludii option strings, e.g. Players/2
//
// The trials are played as Ludii's concept pipeline plays them (a fresh context per trial, its
// RNG state saved before the start so the metrics can replay the trial; a uniformly random
// choice among the legal moves; the game's default turn and move limits), then every metric of
// Evaluation.conceptMetrics() is computed over them (see main) and printed one a line:
//   metric <TAB> concept <TAB> apply <TAB> incremental <TAB> trials

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.commons.rng.RandomProviderState;
import org.apache.commons.rng.core.source64.SplitMix64;

import game.Game;
import metrics.Evaluation;
import metrics.Metric;
import metrics.MetricsTracker;
import metrics.Utils;
import metrics.multiple.MultiMetricFramework;
import other.GameLoader;
import other.RankUtils;
import other.context.Context;
import other.trial.Trial;

public class LudiiMetrics
{
	static boolean usesStateEvaluation(final Metric metric)
	{
		final String cls = metric.getClass().getName();
		return cls.startsWith("metrics.single.stateEvaluation.")
			|| cls.endsWith(".Drama")
			|| cls.endsWith(".MoveEvaluation")
			|| cls.endsWith(".StateEvaluationDifference");
	}

	public static void main(final String[] args)
	{
		final File file = new File(args[0]);
		final int requestedTrials = Integer.parseInt(args[1]);
		final long seed = Long.parseLong(args[2]);
		final int evalTrials = Integer.parseInt(args[3]);
		final double maxSeconds = Double.parseDouble(args[4]);
		final boolean checkApply = args[5].equals("yes");
		final List<String> options = new ArrayList<>();
		for (int i = 6; i < args.length; i++)
			options.add(args[i]);

		final Game game = GameLoader.loadGameFromFile(file, options);
		final int players = game.players().count();
		System.out.println("# game\t" + game.name());
		System.out.println("# file\t" + file.getPath());
		System.out.println("# options\t" + options);
		System.out.println("# players\t" + players);
		System.out.println("# trials requested\t" + requestedTrials + "\tseed\t" + seed + "\teval-trials\t" + evalTrials
			+ "\tmax play seconds\t" + maxSeconds);
		System.out.println("# turn limit (per player)\t" + game.getMaxTurnLimit() + "\tmove limit\t" + game.getMaxMoveLimit());
		System.out.println("# java\t" + System.getProperty("java.version") + "\t" + System.getProperty("java.vm.name"));

		final Random moveChoice = new Random(seed);
		final SplitMix64 seeds = new SplitMix64(Long.valueOf(seed));
		Trial[] trials = new Trial[requestedTrials];
		RandomProviderState[] rngStates = new RandomProviderState[requestedTrials];
		final double[] partialWins = new double[players + 1];
		long sumMoves = 0;
		long sumTurns = 0;
		int atLimit = 0;
		int noWinner = 0;
		final long start = System.nanoTime();
		int numTrials = 0;
		for (int t = 0; t < requestedTrials; t++)
		{
			if ((System.nanoTime() - start) / 1e9 > maxSeconds)
				break;
			numTrials++;
			final Context context = new Context(game, new Trial(game));
			context.rng().restoreState(new SplitMix64(Long.valueOf(seeds.nextLong())).saveState());
			rngStates[t] = context.rng().saveState();
			game.start(context);
			game.playout(context, null, 1.0, null, 0, -1, moveChoice);
			final Trial trial = context.trial();
			final double[] utils = RankUtils.agentUtilities(context);
			for (int p = 1; p <= players; p++)
				partialWins[p] += (utils[p] + 1.0) / 2.0;
			final int moves = trial.numberRealMoves();
			final int turns = trial.numTurns();
			sumMoves += moves;
			sumTurns += turns;
			final boolean limit = turns >= game.getMaxTurnLimit() * players || moves >= game.getMaxMoveLimit();
			if (limit)
				atLimit++;
			if (trial.status() == null || trial.status().winner() == 0)
				noWinner++;
			trials[t] = new Trial(trial);
		}
		final double playSeconds = (System.nanoTime() - start) / 1e9;
		trials = java.util.Arrays.copyOf(trials, numTrials);
		rngStates = java.util.Arrays.copyOf(rngStates, numTrials);
		System.out.printf("# played\t%d trials in %.1f s%n", numTrials, playSeconds);
		System.out.printf("# mean moves\t%.3f\tmean turns\t%.3f%n", sumMoves / (double) numTrials, sumTurns / (double) numTrials);
		System.out.printf("# trials at the turn or move limit\t%d of %d%n", atLimit, numTrials);
		System.out.printf("# trials without a single winner\t%d of %d%n", noWinner, numTrials);
		for (int p = 1; p <= players; p++)
			System.out.printf("# P%d mean partial win\t%.4f%n", p, partialWins[p] / numTrials);

		final Evaluation evaluation = new Evaluation();
		final List<Metric> cheap = new ArrayList<>();
		final List<Metric> evalMetrics = new ArrayList<>();
		for (final Metric m : evaluation.conceptMetrics())
			(usesStateEvaluation(m) ? evalMetrics : cheap).add(m);

		// Two ways of computing each metric, both Ludii's own:
		// * "apply": Metric.apply(game, evaluation, trials, rngStates), the definition every metric
		//   file gives (each replays the trials itself). In Ludii 1.3.13 the multi-metrics' apply
		//   (MultiMetricFramework.getMetricValueLists) stores the Double[] rows into a double[][]
		//   and always throws ArrayStoreException; for them this driver does what apply means to
		//   do with the same public pieces: getMetricValueList per replayed trial, the rows
		//   unboxed, then the aggregate's public method (metricAverage, metricMedian, ...).
		// * "incremental": Ludii's concept pipeline (ParallelComputeConceptsMultipleGames with a
		//   MetricsTracker): startNewTrial, observeNextState after every move, observeFinalState,
		//   finaliseMetric. 1.3.13 does not implement it for the state-evaluation metrics (they
		//   print so and give NaN or 0), so it is run for the others only, as a cross-check.
		System.out.println("metric\tconcept\tapply\tincremental\ttrials");
		report(game, evaluation, cheap, trials, rngStates, true, checkApply);
		if (evalTrials > 0)
		{
			final int n = Math.min(evalTrials, numTrials);
			final Trial[] ts = new Trial[n];
			final RandomProviderState[] rs = new RandomProviderState[n];
			for (int t = 0; t < n; t++)
			{
				ts[t] = trials[t];
				rs[t] = rngStates[t];
			}
			report(game, evaluation, evalMetrics, ts, rs, false, true);
		}
	}

	static Double applyMulti
	(
		final MultiMetricFramework metric, final Game game, final Evaluation evaluation,
		final Trial[] trials, final RandomProviderState[] rngStates
	)
	{
		if (game.hasSubgames() || game.isSimultaneousMoveGame() || game.players().count() == 0)
			return null;
		final double[][] rows = new double[trials.length][];
		for (int t = 0; t < trials.length; t++)
		{
			final Context context = Utils.setupNewContext(game, rngStates[t]);
			final Double[] row = metric.getMetricValueList(evaluation, new Trial(trials[t]), context);
			rows[t] = new double[row.length];
			for (int i = 0; i < row.length; i++)
				rows[t][i] = row[i] == null ? Double.NaN : row[i].doubleValue();
		}
		switch (metric.multiMetricValue())
		{
			case Average: return Double.valueOf(metric.metricAverage(rows));
			case Median: return Double.valueOf(metric.metricMedian(rows));
			case Max: return Double.valueOf(metric.metricMax(rows));
			case Min: return Double.valueOf(metric.metricMin(rows));
			case Variance: return Double.valueOf(metric.metricVariance(rows));
			case ChangeAverage: return Double.valueOf(metric.metricChangeAverage(rows));
			case ChangeSign: return Double.valueOf(metric.metricChangeSign(rows));
			case ChangeLineBestFit: return Double.valueOf(metric.metricChangeLineBestFit(rows));
			case ChangeNumTimes: return Double.valueOf(metric.metricChangeNumTimes(rows));
			case MaxIncrease: return Double.valueOf(metric.metricMaxIncrease(rows));
			case MaxDecrease: return Double.valueOf(metric.metricMaxDecrease(rows));
			default: return null;
		}
	}

	static void report
	(
		final Game game, final Evaluation evaluation, final List<Metric> metrics,
		final Trial[] trials, final RandomProviderState[] rngStates, final boolean incremental,
		final boolean viaApply
	)
	{
		final long start = System.nanoTime();
		final String[] incrementalValues = new String[metrics.size()];
		if (incremental)
		{
			final MetricsTracker tracker = new MetricsTracker(metrics);
			for (int t = 0; t < trials.length; t++)
			{
				final Trial trial = trials[t];
				final Context context = Utils.setupNewContext(game, rngStates[t]);
				tracker.startNewTrial(context, trial);
				for (int i = trial.numInitialPlacementMoves(); i < trial.numMoves(); i++)
				{
					context.game().apply(context, trial.getMove(i));
					tracker.observeNextState(context);
				}
				tracker.observeFinalState(context);
			}
			for (int m = 0; m < metrics.size(); m++)
			{
				try
				{
					incrementalValues[m] = String.valueOf(metrics.get(m).finaliseMetric(game, trials.length));
				}
				catch (final Throwable e)
				{
					incrementalValues[m] = "error: " + e;
				}
			}
		}
		for (int m = 0; m < metrics.size(); m++)
		{
			final Metric metric = metrics.get(m);
			if (!viaApply)
			{
				System.out.printf("%s\t%s\t%s\t%s\t%d%n", metric.name(),
					metric.concept() == null ? "-" : metric.concept().name(), "-", incrementalValues[m], trials.length);
				continue;
			}
			final Trial[] copies = new Trial[trials.length];
			for (int t = 0; t < trials.length; t++)
				copies[t] = new Trial(trials[t]);
			String applied;
			try
			{
				final Double v = metric instanceof MultiMetricFramework
					? applyMulti((MultiMetricFramework) metric, game, evaluation, copies, rngStates)
					: metric.apply(game, evaluation, copies, rngStates);
				applied = v == null ? "null" : String.valueOf(v.doubleValue());
			}
			catch (final Throwable e)
			{
				applied = "error: " + e;
			}
			System.out.printf("%s\t%s\t%s\t%s\t%d%n", metric.name(),
				metric.concept() == null ? "-" : metric.concept().name(), applied,
				incremental ? incrementalValues[m] : "-", trials.length);
			System.out.flush();
		}
		System.out.printf("# %d metrics over %d trials in %.1f s%n", metrics.size(), trials.length,
			(System.nanoTime() - start) / 1e9);
		System.out.flush();
	}
}
