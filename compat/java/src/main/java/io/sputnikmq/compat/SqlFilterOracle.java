package io.sputnikmq.compat;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.rocketmq.broker.filter.ConsumerFilterData;
import org.apache.rocketmq.broker.filter.ConsumerFilterManager;
import org.apache.rocketmq.broker.filter.ExpressionMessageFilter;
import org.apache.rocketmq.broker.filter.MessageEvaluationContext;
import org.apache.rocketmq.common.filter.ExpressionType;
import org.apache.rocketmq.common.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.filter.FilterFactory;
import org.apache.rocketmq.filter.expression.Expression;

/**
 * The broker's SQL92 message selector, for broker/sqlfilter's oracle tests.
 *
 * <p>Each non-blank stdin line is a JSON object {"expr": "...", "props": {"k": "v", ...}} ("props"
 * absent or null: a message without a properties map). Each answer is one stdout line:
 *
 * <pre>
 * {"compileError": MSG}                       FilterFactory.INSTANCE.get("SQL92").compile threw;
 *                                             MSG is getMessage() (what ClientManageProcessor puts
 *                                             in the SUBSCRIPTION_PARSE_FAILED remark)
 * {"string": S, "evalError": E, "match": M}   evaluate threw; E is the Throwable's toString()
 * {"string": S, "type": T, "value": V, "match": M}
 *                                             T is the result's simple class name or "null"; V the
 *                                             result (Boolean as JSON, anything else as its
 *                                             toString())
 * {"oracleError": E}                          this program failed on the line
 * </pre>
 *
 * <p>S is the compiled expression's toString() ("stringError": E instead when that threw, e.g. a
 * StackOverflowError on a very deep tree). Evaluation uses the broker's
 * MessageEvaluationContext over the map; M is ExpressionMessageFilter.isMatchedByCommitLog with an
 * SQL92 subscription whose ConsumerFilterData holds the compiled expression (the pull path's rule:
 * only a Boolean TRUE matches; an exception is logged and does not match).
 *
 * <p>The filter module on the classpath is rocketmq-filter 4.9.7, a dependency of rocketmq-broker
 * 4.9.7: Maven Central has no 4.9.8 build, and git shows no change to filter/ (nor to the broker's
 * filter package) between the two tags but the version number.
 */
public final class SqlFilterOracle {
    private SqlFilterOracle() {
    }

    public static void main(String[] args) throws Exception {
        Util.quietLogging();
        PrintStream out = Util.utf8Stdout();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        ConsumerFilterManager manager = new ConsumerFilterManager();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            JSONObject res;
            try {
                JSONObject req = JSON.parseObject(line);
                res = answer(manager, req.getString("expr"), props(req.getJSONObject("props")));
            } catch (Throwable t) {
                res = new JSONObject(true);
                res.put("oracleError", t.toString());
            }
            out.println(res.toJSONString());
        }
        out.flush();
    }

    private static Map<String, String> props(JSONObject o) {
        if (o == null) {
            return null;
        }
        Map<String, String> m = new HashMap<>();
        for (Map.Entry<String, Object> e : o.entrySet()) {
            m.put(e.getKey(), e.getValue() == null ? null : e.getValue().toString());
        }
        return m;
    }

    private static JSONObject answer(ConsumerFilterManager manager, String expr, Map<String, String> props) {
        JSONObject res = new JSONObject(true);
        Expression compiled;
        try {
            compiled = FilterFactory.INSTANCE.get(ExpressionType.SQL92).compile(expr);
        } catch (Throwable t) {
            res.put("compileError", t.getMessage());
            return res;
        }
        try {
            res.put("string", compiled.toString());
        } catch (Throwable t) {
            res.put("stringError", t.toString());
        }
        try {
            Object v = compiled.evaluate(new MessageEvaluationContext(props));
            res.put("type", v == null ? "null" : v.getClass().getSimpleName());
            res.put("value", v == null || v instanceof Boolean ? v : v.toString());
        } catch (Throwable t) {
            res.put("evalError", t.toString());
        }
        res.put("match", match(manager, expr, compiled, props));
        return res;
    }

    private static boolean match(ConsumerFilterManager manager, String expr, Expression compiled,
        Map<String, String> props) {
        SubscriptionData sub = new SubscriptionData();
        sub.setExpressionType(ExpressionType.SQL92);
        sub.setSubString(expr);
        ConsumerFilterData data = new ConsumerFilterData();
        data.setExpressionType(ExpressionType.SQL92);
        data.setExpression(expr);
        data.setCompiledExpression(compiled);
        return new ExpressionMessageFilter(sub, data, manager).isMatchedByCommitLog(null, props);
    }
}
