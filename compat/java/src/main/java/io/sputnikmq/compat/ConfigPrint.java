package io.sputnikmq.compat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * Prints a 4.9.8 config object's fields the way MixAll.printObjectProperties
 * lists them (declared order, statics skipped, null as empty), one
 * "name=value" per line, with " important" appended for @ImportantField.
 *
 * Usage: ConfigPrint CLASS (a fully qualified name with a no-arg
 * constructor). Set -Duser.home to pin home-derived defaults.
 */
public final class ConfigPrint {
    public static void main(String[] args) throws Exception {
        Object obj = Class.forName(args[0]).getDeclaredConstructor().newInstance();
        StringBuilder out = new StringBuilder();
        for (Field f : obj.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Object v = f.get(obj);
            out.append(f.getName()).append('=').append(v == null ? "" : v.toString());
            if (f.isAnnotationPresent(org.apache.rocketmq.common.annotation.ImportantField.class)) {
                out.append(" important");
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
