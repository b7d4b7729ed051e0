package javacli

import (
	"os"
	"os/signal"
	"os/user"
	"syscall"
)

// UserHome stands for Java's user.home: $HOME, else the passwd entry's
// home (Java reads the passwd entry only; they agree almost everywhere, and
// $HOME lets tests and wrappers relocate the files as -Duser.home does).
func UserHome() string {
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		return h
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return "."
}

// WaitForSignal blocks until SIGTERM or SIGINT and returns the exit code
// the JVM ends with after its shutdown hooks (128 + the signal).
func WaitForSignal() int {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT)
	sig := <-ch
	signal.Stop(ch)
	return 128 + int(sig.(syscall.Signal))
}
