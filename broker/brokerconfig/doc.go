// Package brokerconfig is the broker's configuration and command-line
// front end: `mqbroker -c broker.conf -n addr [-p|-m]` reads Java
// broker.conf files unchanged and stops, prints and warns where 4.9.8's
// BrokerStartup does.
//
// # What mirrors what (Java 4.9.8)
//
//	Go                          Java
//	--------------------------  --------------------------------------------------
//	BrokerConfig                common/.../BrokerConfig (every field, in order)
//	NettyServerConfig           remoting/.../netty/NettyServerConfig (shared by both
//	                            servers: the name server can use it too)
//	NettyClientConfig           remoting/.../netty/NettyClientConfig
//	Startup.Store               store.Config = store/.../MessageStoreConfig
//	Machine                     what their initialisers read: user.home, ROCKETMQ_HOME,
//	                            NAMESRV_ADDR, -D properties, host name
//	                            (localHostName), RemotingUtil.getLocalAddress,
//	                            Runtime.availableProcessors, NettySystemConfig
//	Load                        BrokerStartup.createBrokerController up to -p/-m
//	HelpText, parseCommandLine  ServerUtil.parseCmdLine (compat/javacli: commons-cli 1.2 PosixParser)
//	Print                       MixAll.printObjectProperties via RocketmqConsole and
//	                            logback_broker.xml's STDOUT appender
//	Startup.BrokerConfigPath    BrokerPathConfigHelper.getBrokerConfigPath
//	Startup.AddressServerDomain BrokerStartup.properties2SystemEnv
//	Startup.WSAddr              MixAll.getWSAddr
//
// # properties2SystemEnv
//
// BrokerStartup copies the -c file's rmqAddressServerDomain and
// rmqAddressServerSubGroup (defaults jmenv.tbsite.net and nsaddr, or the
// -Drocketmq.namesrv.domain(.subgroup) values) into the system properties
// rocketmq.namesrv.domain / rocketmq.namesrv.domain.subgroup. They matter
// only with fetchNamesrvAddrByAddressServer=true: the broker then polls
// MixAll.getWSAddr() (http://DOMAIN:8080/rocketmq/SUBGROUP, or without
// ":8080" when DOMAIN has a port) every two minutes for the name server
// list. Neither key belongs to a config object, so they are not reported
// as unknown.
//
// # Differences from Java, on purpose
//
//   - Keys of the -c file that no config object has are collected in
//     Startup.Unknown (Java ignores them silently) and values Java's setters
//     reject in Startup.Invalid (Java swallows the exception); both keep
//     the field as Java does, Startup.Warnings renders them.
//   - Java loads $ROCKETMQ_HOME/conf/logback_broker.xml before -p/-m and
//     dies with a stack trace (exit -1) when it is missing; Load does not
//     look for it, and Print reproduces the distribution file's layout.
//   - There are no JVM system properties: Machine.SystemProps stands for
//     them and LocalMachine leaves it empty.
package brokerconfig
