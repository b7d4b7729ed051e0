package io.sputnikmq.compat;

import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Properties;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.annotation.ImportantField;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.store.config.MessageStoreConfig;

/**
 * Builds the four broker config objects from a properties file the way
 * 4.9.8's BrokerStartup.createBrokerController does up to (not including)
 * its start-up checks: defaults, useTLS from -Dtls.enable, listenPort
 * 10911, then Properties.load over a FileInputStream and
 * MixAll.properties2Object into BrokerConfig, NettyServerConfig,
 * NettyClientConfig and MessageStoreConfig.
 *
 * Usage: BrokerConfigLoad FILE. Output: for each object a line
 * "# SimpleClassName", then its fields in ConfigPrint's format
 * ("name=value", " important" appended for @ImportantField).
 */
public final class BrokerConfigLoad {
    public static void main(String[] args) throws Exception {
        BrokerConfig broker = new BrokerConfig();
        NettyServerConfig server = new NettyServerConfig();
        NettyClientConfig client = new NettyClientConfig();
        client.setUseTLS(Boolean.parseBoolean(System.getProperty("tls.enable", "false")));
        server.setListenPort(10911);
        MessageStoreConfig store = new MessageStoreConfig();
        Properties props = new Properties();
        try (InputStream in = new BufferedInputStream(new FileInputStream(args[0]))) {
            props.load(in);
        }
        Object[] objects = {broker, server, client, store};
        for (Object o : objects) {
            MixAll.properties2Object(props, o);
        }
        StringBuilder out = new StringBuilder();
        for (Object o : objects) {
            out.append("# ").append(o.getClass().getSimpleName()).append('\n');
            print(out, o);
        }
        System.out.print(out);
    }

    private static void print(StringBuilder out, Object obj) throws IllegalAccessException {
        for (Field f : obj.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Object v = f.get(obj);
            out.append(f.getName()).append('=').append(v == null ? "" : v.toString());
            if (f.isAnnotationPresent(ImportantField.class)) {
                out.append(" important");
            }
            out.append('\n');
        }
    }
}
