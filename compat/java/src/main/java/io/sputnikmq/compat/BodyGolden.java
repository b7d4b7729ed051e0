package io.sputnikmq.compat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.rocketmq.broker.client.rebalance.RebalanceLockManager;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.protocol.body.CheckClientRequestBody;
import org.apache.rocketmq.common.protocol.body.LockBatchRequestBody;
import org.apache.rocketmq.common.protocol.body.LockBatchResponseBody;
import org.apache.rocketmq.common.protocol.body.UnlockBatchRequestBody;
import org.apache.rocketmq.common.protocol.header.GetConsumerListByGroupResponseBody;
import org.apache.rocketmq.common.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;

/**
 * The broker's client bookkeeping bodies as the real 4.9.8 classes read and write them
 * (broker/body, broker/clients).
 *
 * <pre>
 *   BodyGolden decode DIR   every DIR/CLASS.CASE.json decoded with RemotingSerializable.decode
 *                           into CLASS (HeartbeatData, CheckClientRequestBody,
 *                           LockBatchRequestBody, UnlockBatchRequestBody, LockBatchResponseBody,
 *                           GetConsumerListByGroupResponseBody) and written back with toJson();
 *                           one line per file, sorted: "FILE\tJSON", "FILE\tnull" or
 *                           "FILE\tERROR exception-class"
 *   BodyGolden lock         stdin script for one RebalanceLockManager (4.9.7 broker jar, the
 *                           class is unchanged in 4.9.8), one command per line:
 *                             lock GROUP CLIENT T:B:Q,T:B:Q,...   prints the lockOKMQSet body
 *                             unlock GROUP CLIENT T:B:Q,...       prints "ok"
 *                           the MQ list is put into a new HashSet in the given order, as fastjson
 *                           fills the request body's mqSet
 * </pre>
 */
public final class BodyGolden {
    private BodyGolden() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length == 2 && args[0].equals("decode")) {
            decode(Paths.get(args[1]));
        } else if (args.length == 1 && args[0].equals("lock")) {
            lock();
        } else {
            System.err.println("usage: BodyGolden decode DIR | BodyGolden lock < script");
            System.exit(2);
        }
    }

    private static Class<? extends RemotingSerializable> classOf(String name) {
        switch (name) {
            case "HeartbeatData":
                return HeartbeatData.class;
            case "CheckClientRequestBody":
                return CheckClientRequestBody.class;
            case "LockBatchRequestBody":
                return LockBatchRequestBody.class;
            case "UnlockBatchRequestBody":
                return UnlockBatchRequestBody.class;
            case "LockBatchResponseBody":
                return LockBatchResponseBody.class;
            case "GetConsumerListByGroupResponseBody":
                return GetConsumerListByGroupResponseBody.class;
            default:
                throw new IllegalArgumentException("unknown class " + name);
        }
    }

    private static void decode(Path dir) throws Exception {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
            for (Path p : ds) {
                files.add(p);
            }
        }
        files.sort(null);
        StringBuilder out = new StringBuilder();
        for (Path p : files) {
            String file = p.getFileName().toString();
            Class<? extends RemotingSerializable> cls = classOf(file.substring(0, file.indexOf('.')));
            String result;
            try {
                RemotingSerializable obj = RemotingSerializable.decode(Files.readAllBytes(p), cls);
                result = obj == null ? "null" : obj.toJson();
            } catch (Throwable e) {
                result = "ERROR " + e.getClass().getName();
            }
            out.append(file).append('\t').append(result).append('\n');
        }
        System.out.print(out);
    }

    private static Set<MessageQueue> mqs(String list) {
        Set<MessageQueue> set = new HashSet<>();
        for (String s : list.split(",")) {
            String[] f = s.split(":");
            set.add(new MessageQueue(f[0], f[1], Integer.parseInt(f[2])));
        }
        return set;
    }

    private static void lock() throws Exception {
        RebalanceLockManager m = new RebalanceLockManager();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.trim().split(" ");
            if (f.length != 4) {
                continue;
            }
            if (f[0].equals("lock")) {
                LockBatchResponseBody body = new LockBatchResponseBody();
                body.setLockOKMQSet(m.tryLockBatch(f[1], mqs(f[3]), f[2]));
                out.append(body.toJson()).append('\n');
            } else if (f[0].equals("unlock")) {
                m.unlockBatch(f[1], mqs(f[3]), f[2]);
                out.append("ok\n");
            }
        }
        System.out.print(out);
    }
}
