package io.sputnikmq.compat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.DispatchRequest;
import org.apache.rocketmq.store.StoreCheckpoint;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.store.index.IndexFile;
import org.apache.rocketmq.store.index.IndexService;
import org.apache.rocketmq.store.index.QueryOffsetResult;

/**
 * The 4.9.8 message key index (org.apache.rocketmq.store.index) as an oracle for store/index.
 * Input lines on stdin are tab-separated; output goes to stdout, one line per input line.
 *
 * <pre>
 * IndexOracle write FILE SLOTS ENTRIES ENDPHY ENDTS
 *     stdin: KEY PHYOFFSET STORETIMESTAMP   -> "true" | "false"  (IndexFile.putKey)
 *            flush                          -> "flushed"         (IndexFile.flush)
 * IndexOracle query FILE SLOTS ENTRIES
 *     opens FILE (IndexFile + load), prints "header BEGIN END ENDPHY", then
 *     stdin: KEY MAXNUM BEGIN END -> "matched=BOOL offsets=O1,O2,..." (isTimeMatched, selectPhyOffset)
 * IndexOracle service ROOT SLOTS ENTRIES MAXBATCH
 *     an IndexService over ROOT/index (with a DefaultMessageStore for its config and checkpoint);
 *     stdin: open LASTEXITOK CHECKPOINTINDEX       -> "files N"   (new IndexService, load)
 *            build TOPIC UNIQ KEYS PHY TS SYSFLAG  -> "ok"        (buildIndex; UNIQ "-" is null)
 *            query TOPIC KEY MAXNUM BEGIN END      -> "offsets=.. ts=.. phy=.." (queryOffset)
 *            delete OFFSET                         -> "files N"   (deleteExpiredFile)
 *            files  -> "file PATH BEGIN END ENDPHY" per file, then "checkpoint TS"
 * </pre>
 *
 * Destroying a mapped file needs {@code --add-opens java.base/java.nio=ALL-UNNAMED} and {@code java.base/jdk.internal.ref} (MappedFile.clean
 * reflects on DirectByteBuffer) in service mode. Every build sleeps 2 ms first, so that two index files never get the same millisecond name
 * (Java would map the existing file again).
 */
public final class IndexOracle {
    public static void main(String[] args) throws Exception {
        PrintStream out = Util.utf8Stdout();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            switch (args[0]) {
                case "write":
                    write(args, in, out);
                    break;
                case "query":
                    query(args, in, out);
                    break;
                case "service":
                    service(args, in, out);
                    break;
                default:
                    Util.die("unknown mode " + args[0], null);
            }
        } catch (Throwable t) {
            // The store's non-daemon threads would keep the JVM alive.
            out.flush();
            Util.die("IndexOracle failed", t);
        }
        out.flush();
        System.exit(0);
    }

    private static void write(String[] a, BufferedReader in, PrintStream out) throws Exception {
        IndexFile f = new IndexFile(a[1], Integer.parseInt(a[2]), Integer.parseInt(a[3]),
            Long.parseLong(a[4]), Long.parseLong(a[5]));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("flush")) {
                f.flush();
                out.println("flushed");
                continue;
            }
            String[] p = line.split("\t", -1);
            out.println(f.putKey(p[0], Long.parseLong(p[1]), Long.parseLong(p[2])));
        }
        f.flush();
    }

    private static void query(String[] a, BufferedReader in, PrintStream out) throws Exception {
        IndexFile f = new IndexFile(a[1], Integer.parseInt(a[2]), Integer.parseInt(a[3]), 0, 0);
        f.load();
        out.println("header " + f.getBeginTimestamp() + " " + f.getEndTimestamp() + " " + f.getEndPhyOffset());
        for (String line; (line = in.readLine()) != null; ) {
            String[] p = line.split("\t", -1);
            long begin = Long.parseLong(p[2]);
            long end = Long.parseLong(p[3]);
            List<Long> offs = new ArrayList<>();
            f.selectPhyOffset(offs, p[0], Integer.parseInt(p[1]), begin, end);
            out.println("matched=" + f.isTimeMatched(begin, end) + " offsets=" + join(offs));
        }
    }

    private static void service(String[] a, BufferedReader in, PrintStream out) throws Exception {
        MessageStoreConfig cfg = new MessageStoreConfig();
        cfg.setStorePathRootDir(a[1]);
        cfg.setMaxHashSlotNum(Integer.parseInt(a[2]));
        cfg.setMaxIndexNum(Integer.parseInt(a[3]));
        cfg.setMaxMsgsNumBatch(Integer.parseInt(a[4]));
        DefaultMessageStore store = new DefaultMessageStore(cfg, null, null, new BrokerConfig());
        StoreCheckpoint cp = new StoreCheckpoint(a[1] + File.separator + "checkpoint");
        Field cpField = DefaultMessageStore.class.getDeclaredField("storeCheckpoint");
        cpField.setAccessible(true);
        cpField.set(store, cp);
        IndexService svc = new IndexService(store);
        for (String line; (line = in.readLine()) != null; ) {
            String[] p = line.split("\t", -1);
            switch (p[0]) {
                case "open":
                    cp.setIndexMsgTimestamp(Long.parseLong(p[2]));
                    svc = new IndexService(store);
                    svc.load(Boolean.parseBoolean(p[1]));
                    out.println("files " + files(svc).size());
                    break;
                case "build":
                    Thread.sleep(2);
                    svc.buildIndex(new DispatchRequest(p[1], 0, Long.parseLong(p[4]), 100, 0,
                        Long.parseLong(p[5]), 0, p[3], p[2].equals("-") ? null : p[2],
                        Integer.parseInt(p[6]), 0, null));
                    awaitIndexFlushes();
                    out.println("ok");
                    break;
                case "query":
                    QueryOffsetResult r = svc.queryOffset(p[1], p[2], Integer.parseInt(p[3]),
                        Long.parseLong(p[4]), Long.parseLong(p[5]));
                    out.println("offsets=" + join(r.getPhyOffsets()) + " ts=" + r.getIndexLastUpdateTimestamp()
                        + " phy=" + r.getIndexLastUpdatePhyoffset());
                    break;
                case "delete":
                    svc.deleteExpiredFile(Long.parseLong(p[1]));
                    out.println("files " + files(svc).size());
                    break;
                case "files":
                    awaitIndexFlushes();
                    for (IndexFile f : files(svc)) {
                        out.println("file " + f.getFileName() + " " + f.getBeginTimestamp() + " "
                            + f.getEndTimestamp() + " " + f.getEndPhyOffset());
                    }
                    out.println("checkpoint " + cp.getIndexMsgTimestamp());
                    break;
                default:
                    Util.die("unknown command " + p[0], null);
            }
        }
    }

    /**
     * Waits for the FlushIndexFileThread threads IndexService starts when a file fills (they flush it and then move the
     * checkpoint's index timestamp). They are started before buildIndex returns, so every one the script caused is
     * found here. A fixed sleep was not always long enough on a loaded machine.
     *
     * Called after every build: IndexService starts one unordered thread per filled file, so when two files fill
     * close together the older file's thread can finish last and move the checkpoint back. Joining them one build at
     * a time gives the order the files filled in, which is what the Go side models (its checkpoint only moves forward).
     */
    private static void awaitIndexFlushes() throws InterruptedException {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("FlushIndexFileThread")) {
                t.join();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<IndexFile> files(IndexService svc) throws Exception {
        Field f = IndexService.class.getDeclaredField("indexFileList");
        f.setAccessible(true);
        return (List<IndexFile>) f.get(svc);
    }

    private static String join(List<Long> offs) {
        StringBuilder b = new StringBuilder();
        for (Long o : offs) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(o);
        }
        return b.toString();
    }
}
