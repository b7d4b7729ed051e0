package io.sputnikmq.compat;

import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Facts OUTDIR
 *
 * Writes protocol facts taken by reflection from the RocketMQ 4.9.8 jars on the classpath:
 * request_codes.tsv, response_codes.tsv, language_codes.tsv, versions.tsv, headers.tsv, header_put_order.tsv.
 * All files are UTF-8, tab separated, '\n' line ends, first line a '#' comment naming the source.
 */
public final class Facts {
    private Facts() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        if (args.length != 1) {
            Util.die("usage: Facts OUTDIR", null);
        }
        Path out = Paths.get(args[0]);
        Files.createDirectories(out);

        requestCodes(out);
        responseCodes(out);
        languageCodes(out);
        versions(out);
        headers(out);
    }

    /** "artifactId version" read from the jar's Maven pom.properties, e.g. "rocketmq-common 4.9.8". */
    static String artifactOf(Class<?> c) {
        try {
            File jar = new File(c.getProtectionDomain().getCodeSource().getLocation().toURI());
            try (JarFile jf = new JarFile(jar)) {
                Enumeration<JarEntry> en = jf.entries();
                while (en.hasMoreElements()) {
                    JarEntry e = en.nextElement();
                    if (e.getName().startsWith("META-INF/maven/") && e.getName().endsWith("/pom.properties")) {
                        Properties p = new Properties();
                        try (InputStream in = jf.getInputStream(e)) {
                            p.load(in);
                        }
                        return p.getProperty("artifactId") + " " + p.getProperty("version");
                    }
                }
            }
            return jar.getName();
        } catch (Exception e) {
            return "unknown";
        }
    }

    static File jarOf(Class<?> c) throws Exception {
        return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static final class IntConst {
        final String name;
        final int value;
        final String declaring;

        IntConst(String name, int value, String declaring) {
            this.name = name;
            this.value = value;
            this.declaring = declaring;
        }
    }

    private static List<IntConst> intConstants(Class<?> c) throws IllegalAccessException {
        List<IntConst> out = new ArrayList<>();
        // getFields(): public fields of the class and of its superclasses/interfaces.
        for (Field f : c.getFields()) {
            int m = f.getModifiers();
            if (Modifier.isStatic(m) && Modifier.isFinal(m) && f.getType() == int.class) {
                out.add(new IntConst(f.getName(), f.getInt(null), f.getDeclaringClass().getSimpleName()));
            }
        }
        out.sort(Comparator.<IntConst>comparingInt(x -> x.value).thenComparing(x -> x.name));
        return out;
    }

    static void requestCodes(Path out) throws Exception {
        Class<?> c = org.apache.rocketmq.common.protocol.RequestCode.class;
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(c.getName()).append(" (").append(artifactOf(c))
            .append("): name\tvalue, public static final int fields, sorted by value then name\n");
        for (IntConst k : intConstants(c)) {
            sb.append(k.name).append('\t').append(k.value).append('\n');
        }
        Util.writeFile(out.resolve("request_codes.tsv"), sb.toString());
    }

    static void responseCodes(Path out) throws Exception {
        Class<?> c = org.apache.rocketmq.common.protocol.ResponseCode.class;
        Class<?> sup = c.getSuperclass();
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(c.getName()).append(" (").append(artifactOf(c)).append(") and its superclass ")
            .append(sup.getName()).append(" (").append(artifactOf(sup))
            .append("): name\tvalue\tdeclaringClass, sorted by value then name\n");
        for (IntConst k : intConstants(c)) {
            sb.append(k.name).append('\t').append(k.value).append('\t').append(k.declaring).append('\n');
        }
        Util.writeFile(out.resolve("response_codes.tsv"), sb.toString());
    }

    static void languageCodes(Path out) throws Exception {
        Class<?> c = org.apache.rocketmq.remoting.protocol.LanguageCode.class;
        List<org.apache.rocketmq.remoting.protocol.LanguageCode> all =
            new ArrayList<>(List.of(org.apache.rocketmq.remoting.protocol.LanguageCode.values()));
        all.sort(Comparator.comparingInt(x -> x.getCode()));
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(c.getName()).append(" (").append(artifactOf(c))
            .append("): name\tcode, sorted by code\n");
        for (org.apache.rocketmq.remoting.protocol.LanguageCode l : all) {
            sb.append(l.name()).append('\t').append(l.getCode()).append('\n');
        }
        Util.writeFile(out.resolve("language_codes.tsv"), sb.toString());
    }

    static void versions(Path out) throws Exception {
        Class<?> c = org.apache.rocketmq.common.MQVersion.Version.class;
        int cur = org.apache.rocketmq.common.MQVersion.CURRENT_VERSION;
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(c.getName()).append(" (").append(artifactOf(c))
            .append("): ordinal\tname, in ordinal order; MQVersion.CURRENT_VERSION=").append(cur)
            .append(" (").append(org.apache.rocketmq.common.MQVersion.getVersionDesc(cur)).append(")\n");
        for (org.apache.rocketmq.common.MQVersion.Version v : org.apache.rocketmq.common.MQVersion.Version.values()) {
            sb.append(v.ordinal()).append('\t').append(v.name()).append('\n');
        }
        Util.writeFile(out.resolve("versions.tsv"), sb.toString());
    }

    static void headers(Path out) throws Exception {
        Class<?> iface = org.apache.rocketmq.remoting.CommandCustomHeader.class;
        Class<?> fast = org.apache.rocketmq.remoting.protocol.FastCodesHeader.class;
        Class<? extends java.lang.annotation.Annotation> notNull = org.apache.rocketmq.remoting.annotation.CFNotNull.class;
        Class<? extends java.lang.annotation.Annotation> nullable = org.apache.rocketmq.remoting.annotation.CFNullable.class;

        // One marker class per scanned artifact.
        Class<?>[] markers = {
            org.apache.rocketmq.common.protocol.RequestCode.class,             // rocketmq-common
            org.apache.rocketmq.remoting.protocol.RemotingCommand.class,       // rocketmq-remoting
            org.apache.rocketmq.client.producer.DefaultMQProducer.class,       // rocketmq-client
            org.apache.rocketmq.tools.admin.DefaultMQAdminExt.class,           // rocketmq-tools
        };
        List<String> artifacts = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>();
        ClassLoader cl = Facts.class.getClassLoader();
        for (Class<?> m : markers) {
            artifacts.add(artifactOf(m));
            try (JarFile jf = new JarFile(jarOf(m))) {
                Enumeration<JarEntry> en = jf.entries();
                while (en.hasMoreElements()) {
                    String n = en.nextElement().getName();
                    if (!n.endsWith(".class") || n.startsWith("META-INF/") || n.endsWith("module-info.class")) {
                        continue;
                    }
                    String cn = n.substring(0, n.length() - ".class".length()).replace('/', '.');
                    Class<?> c;
                    try {
                        c = Class.forName(cn, false, cl);
                    } catch (Throwable t) {
                        continue; // optional dependency missing; cannot be a header we can use anyway
                    }
                    if (!iface.isAssignableFrom(c) || c.isInterface() || Modifier.isAbstract(c.getModifiers())
                        || c.isAnonymousClass() || c.isSynthetic()) {
                        continue;
                    }
                    names.add(c.getName());
                }
            }
        }

        StringBuilder sb = new StringBuilder();
        sb.append("# classes implementing ").append(iface.getName()).append(" in ").append(String.join(", ", artifacts))
            .append(": class\tfield\tjavaType\trequired\tdeclaringClass\tfastCodes;")
            .append(" fields = non-static, name not starting with \"this\", subclass first, getDeclaredFields order;")
            .append(" a class without fields has one row with field '-'\n");
        for (String cn : names) {
            Class<?> c = Class.forName(cn, false, cl);
            String fc = fast.isAssignableFrom(c) ? "fast" : "-";
            List<Field> fields = Util.headerFields(c);
            if (fields.isEmpty()) {
                sb.append(cn).append("\t-\t-\t-\t-\t").append(fc).append('\n');
                continue;
            }
            for (Field f : fields) {
                String req = f.isAnnotationPresent(notNull) ? "notnull" : f.isAnnotationPresent(nullable) ? "nullable" : "-";
                sb.append(cn).append('\t').append(f.getName()).append('\t').append(f.getType().getSimpleName())
                    .append('\t').append(req).append('\t').append(f.getDeclaringClass().getSimpleName())
                    .append('\t').append(fc).append('\n');
            }
        }
        Util.writeFile(out.resolve("headers.tsv"), sb.toString());
        putOrders(out, names, cl);
    }

    /**
     * header_put_order.tsv: for each header class, the order in which RemotingCommand.makeCustomHeaderToNet
     * puts its fields into extFields, read from the real (private) RemotingCommand.getClazzFields.
     */
    static void putOrders(Path out, TreeSet<String> names, ClassLoader cl) throws Exception {
        java.lang.reflect.Method m = org.apache.rocketmq.remoting.protocol.RemotingCommand.class
            .getDeclaredMethod("getClazzFields", Class.class);
        m.setAccessible(true);
        Object cmd = org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(0, null);
        StringBuilder sb = new StringBuilder();
        sb.append("# RemotingCommand.getClazzFields order of each header class (non-static fields whose name does")
            .append(" not start with \"this\", as makeCustomHeaderToNet puts them): class\tfields (comma-separated, '-' for none)\n");
        for (String cn : names) {
            Field[] fields = (Field[]) m.invoke(cmd, Class.forName(cn, false, cl));
            List<String> keys = new ArrayList<>();
            for (Field f : fields) {
                if (!Modifier.isStatic(f.getModifiers()) && !f.getName().startsWith("this")) {
                    keys.add(f.getName());
                }
            }
            sb.append(cn).append('\t').append(keys.isEmpty() ? "-" : String.join(",", keys)).append('\n');
        }
        Util.writeFile(out.resolve("header_put_order.tsv"), sb.toString());
    }
}
