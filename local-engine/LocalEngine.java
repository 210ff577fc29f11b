/*
 * Starts one OpenSearch node with org.codelibs.opensearch.runner, run as a single-file source
 * program (`java -cp 'lib/*' local-engine/LocalEngine.java BASE_PATH HTTP_PORT CLUSTER_NAME [NODE_NAME]`):
 * no build. The same file runs OpenSearch 2.x (Java 17+) and 3.x (Java 21+).
 *
 * Why not the runner's own main: it only accepts HTTP ports up to 9299, silently moves to the next
 * port when the asked one is busy, and swallows the exception when a node fails to start. Here the
 * port is exactly the one asked for, a failure prints its cause (local-engine/local-engine.ts shows the
 * log's last lines), and SIGTERM closes the node cleanly. A node of a cluster of several JVMs gets
 * a name (the runner would call each "Node 1"), which the cluster's bootstrap settings list.
 */
import org.codelibs.opensearch.runner.OpenSearchRunner;

public class LocalEngine {
  public static void main(String[] args) throws Exception {
    if (args.length != 3 && args.length != 4) {
      System.err.println("usage: LocalEngine BASE_PATH HTTP_PORT CLUSTER_NAME [NODE_NAME]");
      System.exit(2);
    }
    int port = Integer.parseInt(args[1]);
    OpenSearchRunner runner = new OpenSearchRunner();
    // The runner numbers nodes from 1 and gives node n the port baseHttpPort + n.
    runner.setMaxHttpPort(port);
    if (args.length == 4) {
      String name = args[3];
      runner.onBuild((number, settings) -> settings.put("node.name", name));
    }
    try {
      runner.build(OpenSearchRunner.newConfigs()
          .basePath(args[0])
          .numOfNode(1)
          .baseHttpPort(port - 1)
          .clusterName(args[2])
          .printOnFailure());
    } catch (Throwable failure) {
      System.err.println("The engine failed to start: " + failure);
      for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
        System.err.println("  caused by: " + cause);
      }
      failure.printStackTrace();
      try {
        runner.close();
      } catch (Throwable ignored) {
        // Nothing more to release.
      }
      System.exit(1);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        runner.close();
      } catch (Throwable error) {
        System.err.println("closing the engine: " + error);
      }
    }));
    System.out.println("LocalEngine: node up on http://127.0.0.1:" + port);
    Thread.currentThread().join();
  }
}
