package brokerconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sputnikmq/sputnik/compat/javalang"
	"github.com/sputnikmq/sputnik/compat/javaprops"
	"github.com/sputnikmq/sputnik/store"
)

// Errors Load returns where Java's BrokerStartup throws: it prints the
// exception's stack trace on stderr and calls System.exit(-1) (process
// status 255, ExitException). The error text starts with the Java
// exception's own message where there is one.
var (
	// ErrConfigFile: the -c file cannot be opened or read, or holds a
	// malformed \uXXXX escape (Properties.load's IllegalArgumentException).
	ErrConfigFile = errors.New("brokerconfig: config file")
	// ErrSystemProperty: a NettySystemConfig system property is not an
	// int (Java's class initialisation fails).
	ErrSystemProperty = errors.New("brokerconfig: bad system property")
)

// Exit codes of BrokerStartup.createBrokerController (System.exit
// arguments; the process status is the low byte: -1 → 255, -2 → 254,
// -3 → 253).
const (
	ExitOK          = 0  // -h, -p, -m
	ExitBadArgs     = 1  // ServerUtil.parseCmdLine: ParseException
	ExitException   = -1 // any exception: Load's error
	ExitNoHome      = -2 // rocketmqHome is null
	ExitBadSettings = -3 // namesrvAddr unparsable, or a slave with brokerId <= 0
)

// The broker's fixed start-up values.
const (
	// DefaultListenPort is set on NettyServerConfig before the -c file.
	DefaultListenPort = 10911
	// accessRatioSlaveCut is what a SLAVE default role takes off
	// accessMessageInMemoryMaxRatio.
	accessRatioSlaveCut = 10
	// defaultAddressServerDomain and defaultAddressServerSubGroup are
	// MixAll.WS_DOMAIN_NAME / WS_DOMAIN_SUBGROUP without -D overrides.
	defaultAddressServerDomain   = "jmenv.tbsite.net"
	defaultAddressServerSubGroup = "nsaddr"
)

// Messages BrokerStartup prints on stdout before exiting (no trailing
// newline where Java uses printf without %n).
const (
	msgNoHome        = "Please set the ROCKETMQ_HOME variable in your environment to match the location of the RocketMQ installation"
	msgBadNamesrv    = "The Name Server Address[%s] illegal, please set it as follows, \"127.0.0.1:9876;192.168.0.1:9876\"\n"
	msgSlaveBrokerID = "Slave's brokerId must be > 0"
)

// PrintMode is what -p / -m ask for.
type PrintMode int

// The print modes.
const (
	PrintNone      PrintMode = iota
	PrintAll                 // -p: every field (wins over -m)
	PrintImportant           // -m: @ImportantField fields only
)

// Exit says that start-up stops: print Stdout on stdout, then exit.
type Exit struct {
	Code   int    // System.exit argument (ExitOK, ExitBadArgs, ExitNoHome, ExitBadSettings)
	Stdout string // exactly what Java prints before exiting
}

// Status is the process exit status of Code.
func (e *Exit) Status() int { return e.Code & 0xff }

// Startup is the result of BrokerStartup's configuration steps.
type Startup struct {
	Broker      BrokerConfig
	NettyServer NettyServerConfig
	NettyClient NettyClientConfig
	Store       store.Config

	// ConfigFile is the -c file, "" without one.
	ConfigFile string
	// BrokerConfigPath is BrokerPathConfigHelper.getBrokerConfigPath():
	// the -c file, else ~/store/config/broker.properties. UPDATE_BROKER_CONFIG
	// persists there.
	BrokerConfigPath string
	// FileProps are the -c file's properties, unknown keys included
	// (BrokerController's Configuration.registerConfig); nil without -c.
	FileProps *javaprops.Properties
	// AddressServerDomain and AddressServerSubGroup are what
	// properties2SystemEnv puts into the rocketmq.namesrv.domain(.subgroup)
	// system properties: the file's rmqAddressServerDomain /
	// rmqAddressServerSubGroup, else the defaults. With
	// fetchNamesrvAddrByAddressServer the broker polls WSAddr() for the
	// name server list.
	AddressServerDomain, AddressServerSubGroup string
	// BrokerLogDir is the brokerLogDir system property logback_broker.xml
	// puts between rocketmqlogs/ and the file names.
	BrokerLogDir string
	// ACLHome is where the ACL files are looked for with aclEnable: the
	// rocketmq.home.dir system property, else ROCKETMQ_HOME, never the -c
	// file's rocketmqHome (Java's PlainPermissionManager.fileHome); ""
	// when neither is set. ACLPlainFile is the default ACL file relative
	// to it (-Drocketmq.acl.plain.file, conf/plain_acl.yml).
	ACLHome, ACLPlainFile string

	Print PrintMode
	// Exit is non-nil when start-up must stop (help, -p/-m are not exits:
	// the caller prints, then exits with ExitOK).
	Exit *Exit
	// Unknown lists the -c file's keys no config object has; Java ignores
	// them silently, Sputnik warns.
	Unknown []string
	// Invalid joins the *javaprops.ValueError of values Java's setters
	// reject (the field keeps its value); nil when there are none.
	Invalid error
}

// Load runs BrokerStartup.createBrokerController's configuration steps
// for command line args on this host (LocalMachine(env, userHome)).
func Load(args []string, env map[string]string, userHome string) (*Startup, error) {
	return LocalMachine(env, userHome).Load(args)
}

// Load runs BrokerStartup.createBrokerController's configuration steps on
// m, in Java's order:
//
//  1. parse the command line (help and exit 1 on error; -h: help, exit 0);
//  2. defaults; useTLS from tls.enable; listenPort 10911; a SLAVE default
//     role lowers accessMessageInMemoryMaxRatio by 10 (never, as the
//     default role is ASYNC_MASTER, but mirrored);
//  3. with -c: load the file (ISO-8859-1), properties2SystemEnv, bind it
//     to BrokerConfig, NettyServerConfig, NettyClientConfig and
//     MessageStoreConfig, remember it as the broker config path;
//  4. the command line's namesrvAddr (-n) onto BrokerConfig;
//  5. rocketmqHome null: exit -2; namesrvAddr unparsable: exit -3;
//  6. masters get brokerId 0, a slave needs brokerId > 0 (exit -3);
//     enableDLegerCommitLog sets brokerId -1;
//  7. haListenPort = listenPort + 1; brokerLogDir.
func (m Machine) Load(args []string) (*Startup, error) {
	cl, err := parseCommandLine(args)
	if err != nil {
		return &Startup{Exit: &Exit{Code: ExitBadArgs, Stdout: HelpText}}, nil
	}
	if cl.Has("h") {
		return &Startup{Exit: &Exit{Code: ExitOK, Stdout: HelpText}}, nil
	}
	s, err := m.defaults()
	if err != nil {
		return nil, err
	}
	s.Print = printMode(cl)
	if file, ok := cl.Value("c"); ok {
		if err := s.loadFile(file); err != nil {
			return nil, err
		}
	}
	if addr, ok := cl.Value("n"); ok {
		s.Broker.NamesrvAddr = &addr
	}
	s.Exit = s.check()
	if s.Exit == nil {
		s.finish()
	}
	return s, nil
}

func printMode(cl *commandLine) PrintMode {
	switch {
	case cl.Has("p"):
		return PrintAll
	case cl.Has("m"):
		return PrintImportant
	}
	return PrintNone
}

// defaults builds the four config objects as BrokerStartup does before
// reading the -c file.
func (m Machine) defaults() (*Startup, error) {
	s := &Startup{
		Broker:                DefaultBrokerConfig(m),
		Store:                 store.DefaultConfig(m.UserHome),
		BrokerConfigPath:      filepath.Join(m.UserHome, "store", "config", "broker.properties"),
		AddressServerDomain:   defaultAddressServerDomain,
		AddressServerSubGroup: defaultAddressServerSubGroup,
	}
	if v, ok := m.sysProp("rocketmq.namesrv.domain"); ok {
		s.AddressServerDomain = v
	}
	if home := m.propOrEnv("rocketmq.home.dir", "ROCKETMQ_HOME"); home != nil {
		s.ACLHome = *home
	}
	s.ACLPlainFile = "conf/plain_acl.yml"
	if v, ok := m.sysProp("rocketmq.acl.plain.file"); ok {
		s.ACLPlainFile = v
	}
	if v, ok := m.sysProp("rocketmq.namesrv.domain.subgroup"); ok {
		s.AddressServerSubGroup = v
	}
	var err error
	if s.NettyServer, err = DefaultNettyServerConfig(m); err != nil {
		return nil, err
	}
	if s.NettyClient, err = DefaultNettyClientConfig(m); err != nil {
		return nil, err
	}
	s.NettyClient.UseTLS = brokerUseTLS(m)
	s.NettyServer.ListenPort = DefaultListenPort
	if s.Store.BrokerRole == store.Slave {
		s.Store.AccessMessageInMemoryMaxRatio -= accessRatioSlaveCut
	}
	return s, nil
}

// addressServerKeys are the keys properties2SystemEnv consumes; no config
// object has them, but they are not unknown.
var addressServerKeys = map[string]bool{"rmqAddressServerDomain": true, "rmqAddressServerSubGroup": true}

// loadFile is the -c branch of createBrokerController.
func (s *Startup) loadFile(file string) error {
	props, err := readProperties(file)
	if err != nil {
		return err
	}
	s.ConfigFile, s.FileProps, s.BrokerConfigPath = file, props, file
	if v, ok := props.Get("rmqAddressServerDomain"); ok {
		s.AddressServerDomain = v
	}
	if v, ok := props.Get("rmqAddressServerSubGroup"); ok {
		s.AddressServerSubGroup = v
	}
	unknown, invalid := javaprops.Bind(props, &s.Broker, &s.NettyServer, &s.NettyClient, &s.Store)
	for _, k := range unknown {
		if !addressServerKeys[k] {
			s.Unknown = append(s.Unknown, k)
		}
	}
	s.Invalid = invalid
	return nil
}

// readProperties is new FileInputStream(file) + Properties.load, with
// Java's exception text.
func readProperties(file string) (*javaprops.Properties, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrConfigFile, javaIOError(file, err))
	}
	props, err := javaprops.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: java.lang.IllegalArgumentException: %w", ErrConfigFile, file, err)
	}
	return props, nil
}

// javaIOError renders a file error like the FileNotFoundException /
// IOException Java throws.
func javaIOError(file string, err error) string {
	var reason string
	switch {
	case errors.Is(err, fs.ErrNotExist):
		reason = "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		reason = "Permission denied"
	default:
		if fi, statErr := os.Stat(file); statErr == nil && fi.IsDir() {
			reason = "Is a directory"
		} else {
			return "java.io.IOException: " + err.Error()
		}
	}
	return "java.io.FileNotFoundException: " + file + " (" + reason + ")"
}

// check applies the rules that stop start-up, in Java's order.
func (s *Startup) check() *Exit {
	if s.Broker.RocketmqHome == nil {
		return &Exit{Code: ExitNoHome, Stdout: msgNoHome}
	}
	if addr := s.Broker.NamesrvAddr; addr != nil && !validNamesrvAddr(*addr) {
		return &Exit{Code: ExitBadSettings, Stdout: fmt.Sprintf(msgBadNamesrv, *addr)}
	}
	switch s.Store.BrokerRole {
	case store.AsyncMaster, store.SyncMaster:
		s.Broker.BrokerID = MasterID
	case store.Slave:
		if s.Broker.BrokerID <= 0 {
			return &Exit{Code: ExitBadSettings, Stdout: msgSlaveBrokerID}
		}
	}
	return nil
}

// finish is what createBrokerController does after the checks and before
// -p/-m: the DLedger brokerId, the HA port and the log directory.
func (s *Startup) finish() {
	if s.Store.EnableDLegerCommitLog {
		s.Broker.BrokerID = -1
	}
	s.Store.HaListenPort = s.NettyServer.ListenPort + 1 // int arithmetic: wraps like Java
	if s.Broker.IsolateLogEnable {
		s.BrokerLogDir = s.Broker.BrokerName + "_" + strconv.FormatInt(s.Broker.BrokerID, 10)
		if s.Store.EnableDLegerCommitLog {
			s.BrokerLogDir = s.Broker.BrokerName + "_" + javaString(s.Store.DLegerSelfID)
		}
	}
}

// javaString is String concatenation's rendering of a possibly null
// String.
func javaString(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

// validNamesrvAddr reports whether RemotingUtil.string2SocketAddress
// accepts every ';'-separated address of addr (String.split: trailing
// empty parts dropped): "host:port" split at the last ':', the port an
// Integer.parseInt number in 0..65535. The host is not checked (an
// unresolvable host gives an unresolved address, not an error).
func validNamesrvAddr(addr string) bool {
	for _, a := range javaSplit(addr, ";") {
		i := strings.LastIndexByte(a, ':')
		if i < 0 {
			return false
		}
		port, err := javalang.ParseInt(a[i+1:])
		if err != nil || port < 0 || port > 0xFFFF {
			return false
		}
	}
	return true
}

// javaSplit is String.split with a one-char literal separator: without a
// match the string itself, else trailing empty strings dropped.
func javaSplit(s, sep string) []string {
	if !strings.Contains(s, sep) {
		return []string{s}
	}
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// WSAddr is MixAll.getWSAddr with this start-up's address-server domain
// and subgroup: where fetchNamesrvAddrByAddressServer polls.
func (s *Startup) WSAddr() string {
	if strings.Index(s.AddressServerDomain, ":") > 0 {
		return "http://" + s.AddressServerDomain + "/rocketmq/" + s.AddressServerSubGroup
	}
	return "http://" + s.AddressServerDomain + ":8080/rocketmq/" + s.AddressServerSubGroup
}

// Warnings renders Unknown and Invalid as lines for the operator.
func (s *Startup) Warnings() []string {
	var out []string
	for _, k := range s.Unknown {
		out = append(out, fmt.Sprintf("%s: unknown config key %q ignored", s.ConfigFile, k))
	}
	var joined interface{ Unwrap() []error }
	if errors.As(s.Invalid, &joined) {
		for _, e := range joined.Unwrap() {
			out = append(out, fmt.Sprintf("%s: %v", s.ConfigFile, e))
		}
	} else if s.Invalid != nil {
		out = append(out, fmt.Sprintf("%s: %v", s.ConfigFile, s.Invalid))
	}
	return out
}
