package io.fsindex.sqlite;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.SQLException;

/**
 * The handler of a proxy for a JDBC object lent out for reuse ({@link IdleConnections}, {@link KeptStatements}): every
 * call goes to the real object, but {@code close} gives it back ({@link #giveBack}), after which the proxy reads
 * as closed and refuses further calls.
 */
abstract class GivenBack<T> implements InvocationHandler {
    final T real;
    private boolean givenBack;

    GivenBack(T real) {
        this.real = real;
    }

    /** Puts the real object aside for reuse, or closes it; called once, on the proxy's first {@code close}. */
    abstract void giveBack() throws SQLException;

    /** The call {@code method} on the real object; a handler may answer some calls itself instead. */
    Object call(Object proxy, Method method, Object[] args) throws Throwable {
        return onReal(method, args);
    }

    private Object onReal(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(real, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public final Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "close":
                if (!givenBack) {
                    try {
                        giveBack();
                    } finally {
                        givenBack = true;
                    }
                }
                return null;
            case "isClosed":
                return givenBack || (Boolean) onReal(method, args);
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "lent " + real;
            default:
                break;
        }
        if (givenBack) {
            throw new SQLException("closed");
        }
        return call(proxy, method, args);
    }
}
