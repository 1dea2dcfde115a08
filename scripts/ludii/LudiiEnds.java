// How Ludii's trials of a game end: the winner, and whether each seat still has pieces on the
// board. Replays the same trials as LudiiMetrics.java (same seed scheme: SplitMix64(1) for the
// throws, java.util.Random(1) for the moves, uniform random playouts, two players), so the
// counts explain that run's AdvantageP1. For docs/compare-ludii.md; not run by CI.
//   javac -cp <Ludii classes> -d OUT LudiiEnds.java
//   java -cp OUT:<Ludii classes> LudiiEnds "<Ludii>/Common/res/lud/.../X.lud" TRIALS
import java.io.File;
import java.util.*;
import org.apache.commons.rng.core.source64.SplitMix64;
import game.Game;
import other.GameLoader;
import other.context.Context;
import other.trial.Trial;
public class LudiiEnds {
  public static void main(String[] a) {
    Game game = GameLoader.loadGameFromFile(new File(a[0]), Arrays.asList("Players/2"));
    int n = Integer.parseInt(a[1]);
    Random r = new Random(1); SplitMix64 seeds = new SplitMix64(Long.valueOf(1));
    Map<String,Integer> counts = new TreeMap<>();
    for (int t = 0; t < n; t++) {
      Context c = new Context(game, new Trial(game));
      c.rng().restoreState(new SplitMix64(Long.valueOf(seeds.nextLong())).saveState());
      game.start(c); game.playout(c, null, 1.0, null, 0, -1, r);
      int w = c.trial().status() == null ? -1 : c.trial().status().winner();
      boolean p1 = c.state().owned().sites(1).size() > 0, p2 = c.state().owned().sites(2).size() > 0;
      String k = "winner=" + w + " p1pieces=" + p1 + " p2pieces=" + p2;
      counts.merge(k, 1, Integer::sum);
    }
    System.out.println(a[0]); counts.forEach((k,v) -> System.out.println(v + "\t" + k));
  }
}
