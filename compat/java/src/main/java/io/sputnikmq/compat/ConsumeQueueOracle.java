package io.sputnikmq.compat;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.store.CommitLog;
import org.apache.rocketmq.store.ConsumeQueue;
import org.apache.rocketmq.store.ConsumeQueueExt;
import org.apache.rocketmq.store.DefaultMessageStore;
import org.apache.rocketmq.store.DispatchRequest;
import org.apache.rocketmq.store.SelectMappedBufferResult;
import org.apache.rocketmq.store.StoreCheckpoint;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Drives the real 4.9.8 {@code org.apache.rocketmq.store.ConsumeQueue} from a script, for
 * store/consumequeue's oracle tests.
 *
 * <pre>
 *   ConsumeQueueOracle ROOT FILESIZE TOPIC QUEUEID [EXTFILESIZE]  &lt; script
 * </pre>
 *
 * The queue lives in ROOT/consumequeue/TOPIC/QUEUEID (ext files, when EXTFILESIZE is given, in
 * ROOT/consumequeue_ext). A DefaultMessageStore rooted at ROOT/store-java supplies the config,
 * running flags and checkpoint; its commit log is replaced by a table of store times for
 * getOffsetInQueueByTime. Removing a file unmaps it through DirectByteBuffer internals, so the JVM
 * needs --add-opens java.base/java.nio=ALL-UNNAMED and java.base/sun.nio.ch=ALL-UNNAMED, and
 * --add-exports java.base/jdk.internal.ref=ALL-UNNAMED. Script lines (blank lines and lines starting with # are skipped):
 *
 * <pre>
 *   open                      new ConsumeQueue + load() (a restart)
 *   put PHY SIZE TAGS CQOFF   putMessagePositionInfo (private, by reflection) → "put true|false"
 *   dispatch PHY SIZE TAGS CQOFF STORETIME BITMAPHEX|-   putMessagePositionInfoWrapper
 *   recover | flush           recover() | flush(0)
 *   truncate PHY              truncateDirtyLogicFiles(PHY)
 *   correctmin PHY            correctMinOffset(PHY)
 *   delete PHY                deleteExpiredFile(PHY) → "deleted N"
 *   stamp PHY TIME            the fake commit log stores the record at PHY at TIME
 *   minphy PHY                the fake commit log's min offset
 *   bytime TS                 getOffsetInQueueByTime(TS) → "bytime TS OFFSET"
 *   state                     → "state min MIN max MAX maxphy MAXPHY"
 *   units                     every offset from min to max−1 through getIndexBuffer →
 *                             "unit OFF PHY SIZE TAGS" or "unit OFF null"
 *   ext ADDR                  getExt(ADDR) → "ext ADDR SIZE TAGS TIME BITMAPHEX|-" or "ext ADDR null"
 * </pre>
 */
public final class ConsumeQueueOracle {
    private ConsumeQueueOracle() {
    }

    /** A store whose commit log is a table of store times. */
    static final class FakeStore extends DefaultMessageStore {
        final Map<Long, Long> stamps = new HashMap<>();
        long minPhy;
        private CommitLog fake;

        FakeStore(MessageStoreConfig cfg) throws Exception {
            super(cfg, null, null, new BrokerConfig());
        }

        @Override
        public long getMinPhyOffset() {
            return minPhy;
        }

        @Override
        public synchronized CommitLog getCommitLog() {
            if (fake == null) {
                fake = new CommitLog(this) {
                    @Override
                    public long pickupStoreTimestamp(long offset, int size) {
                        Long t = stamps.get(offset);
                        return t == null ? -1 : t;
                    }
                };
            }
            return fake;
        }
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable t) {
            // The store's service threads are not daemons: exit, do not hang.
            Util.die("ConsumeQueueOracle failed", t);
        }
        System.exit(0);
    }

    private static void run(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length < 4) {
            Util.die("usage: ConsumeQueueOracle ROOT FILESIZE TOPIC QUEUEID [EXTFILESIZE] < script", null);
        }
        String root = args[0];
        int fileSize = Integer.parseInt(args[1]);
        String topic = args[2];
        int queueId = Integer.parseInt(args[3]);

        MessageStoreConfig cfg = new MessageStoreConfig();
        cfg.setStorePathRootDir(root + File.separator + "store-java");
        cfg.setStorePathCommitLog(root + File.separator + "store-java" + File.separator + "commitlog");
        if (args.length > 4) {
            cfg.setEnableConsumeQueueExt(true);
            cfg.setMappedFileSizeConsumeQueueExt(Integer.parseInt(args[4]));
        }
        FakeStore store = new FakeStore(cfg);
        Field cp = DefaultMessageStore.class.getDeclaredField("storeCheckpoint");
        cp.setAccessible(true);
        cp.set(store, new StoreCheckpoint(root + File.separator + "store-java" + File.separator + "checkpoint"));
        if (args.length > 4) {
            // The ext files go where the Go side keeps them: ROOT/consumequeue_ext.
            cfg.setStorePathRootDir(root);
        }

        Method put = ConsumeQueue.class.getDeclaredMethod("putMessagePositionInfo",
            long.class, int.class, long.class, long.class);
        put.setAccessible(true);

        PrintStream out = Util.utf8Stdout();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String cqRoot = root + File.separator + "consumequeue";
        ConsumeQueue cq = null;
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            switch (f[0]) {
                case "open":
                    cq = new ConsumeQueue(topic, queueId, cqRoot, fileSize, store);
                    if (!cq.load()) {
                        Util.die("load failed", null);
                    }
                    break;
                case "put":
                    Object ok = put.invoke(cq, Long.parseLong(f[1]), Integer.parseInt(f[2]),
                        Long.parseLong(f[3]), Long.parseLong(f[4]));
                    out.println("put " + ok);
                    break;
                case "dispatch":
                    DispatchRequest r = new DispatchRequest(topic, queueId, Long.parseLong(f[1]),
                        Integer.parseInt(f[2]), Long.parseLong(f[3]), Long.parseLong(f[5]), Long.parseLong(f[4]),
                        null, null, 0, 0, null);
                    if (!f[6].equals("-")) {
                        r.setBitMap(unhex(f[6]));
                    }
                    cq.putMessagePositionInfoWrapper(r, false);
                    break;
                case "recover":
                    cq.recover();
                    break;
                case "flush":
                    cq.flush(0);
                    break;
                case "truncate":
                    cq.truncateDirtyLogicFiles(Long.parseLong(f[1]));
                    break;
                case "correctmin":
                    cq.correctMinOffset(Long.parseLong(f[1]));
                    break;
                case "delete":
                    out.println("deleted " + cq.deleteExpiredFile(Long.parseLong(f[1])));
                    break;
                case "stamp":
                    store.stamps.put(Long.parseLong(f[1]), Long.parseLong(f[2]));
                    break;
                case "minphy":
                    store.minPhy = Long.parseLong(f[1]);
                    break;
                case "bytime":
                    out.println("bytime " + f[1] + " " + cq.getOffsetInQueueByTime(Long.parseLong(f[1])));
                    break;
                case "state":
                    out.println("state min " + cq.getMinOffsetInQueue() + " max " + cq.getMaxOffsetInQueue()
                        + " maxphy " + cq.getMaxPhysicOffset());
                    break;
                case "units":
                    units(out, cq);
                    break;
                case "ext":
                    ext(out, cq, Long.parseLong(f[1]));
                    break;
                default:
                    Util.die("unknown command: " + line, null);
            }
        }
        out.flush();
    }

    private static void units(PrintStream out, ConsumeQueue cq) {
        for (long off = cq.getMinOffsetInQueue(); off < cq.getMaxOffsetInQueue(); off++) {
            SelectMappedBufferResult r = cq.getIndexBuffer(off);
            if (r == null) {
                out.println("unit " + off + " null");
                continue;
            }
            try {
                long phy = r.getByteBuffer().getLong();
                int size = r.getByteBuffer().getInt();
                long tags = r.getByteBuffer().getLong();
                out.println("unit " + off + " " + phy + " " + size + " " + tags);
            } finally {
                r.release();
            }
        }
    }

    private static void ext(PrintStream out, ConsumeQueue cq, long addr) {
        ConsumeQueueExt.CqExtUnit u = cq.getExt(addr);
        if (u == null) {
            out.println("ext " + addr + " null");
            return;
        }
        byte[] bm = u.getFilterBitMap();
        out.println("ext " + addr + " " + u.getSize() + " " + u.getTagsCode() + " " + u.getMsgStoreTime() + " "
            + (bm == null ? "-" : Util.hex(bm)));
    }

    private static byte[] unhex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }
}
