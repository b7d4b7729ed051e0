package acl

// The acl admin operations (UPDATE_AND_CREATE_ACL_CONFIG, DELETE_ACL_CONFIG,
// UPDATE_GLOBAL_WHITE_ADDRS_CONFIG, GET_BROKER_CLUSTER_ACL_CONFIG), as
// PlainPermissionManager.updateAccessConfig, deleteAccessConfig,
// updateGlobalWhiteAddrsConfig and getAllAclConfig do them: they rewrite a
// yml file (keeping its other keys), bump its dataVersion
// (updateAclConfigFileVersion) and reload.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Config is every file's global white addresses and accounts, shaped as
// Java's AclConfig for GET_BROKER_CLUSTER_ACL_CONFIG.
type Config struct {
	GlobalWhiteAddrs   []string  `json:"globalWhiteAddrs"`
	PlainAccessConfigs []Account `json:"plainAccessConfigs"`
}

// Config is getAllAclConfig, from the loaded configuration: the files in
// load order, an access key once (its first file).
func (m *Manager) Config() Config {
	s := m.snap.Load()
	c := Config{GlobalWhiteAddrs: []string{}, PlainAccessConfigs: []Account{}}
	for _, f := range s.files {
		c.GlobalWhiteAddrs = append(c.GlobalWhiteAddrs, s.globalWhiteAddrs[f]...)
	}
	for _, a := range s.ordered {
		c.PlainAccessConfigs = append(c.PlainAccessConfigs, a.Account)
	}
	return c
}

// DataVersion is the plain file's data version (getAclConfigDataVersion);
// counter 0 and the load time when the file has none.
func (m *Manager) DataVersion() DataVersion {
	s := m.snap.Load()
	if v, ok := s.versions[m.plainFile]; ok {
		return v
	}
	return DataVersion{Timestamp: s.loaded}
}

// DataVersions are the data versions of all files with data
// (getAllAclConfigVersion).
func (m *Manager) DataVersions() map[string]DataVersion {
	s := m.snap.Load()
	out := make(map[string]DataVersion, len(s.versions))
	for k, v := range s.versions {
		out[k] = v
	}
	return out
}

// UpdateAccount is updateAccessConfig: it replaces the account in the file
// that holds its access key (merging: empty fields keep the old values), or
// adds it to the plain file. Validation errors carry Java's messages.
func (m *Manager) UpdateAccount(a Account) error {
	if err := checkKeys(a); err != nil {
		return err
	}
	if err := checkResourcePerms(a.TopicPerms); err != nil {
		return err
	}
	if err := checkResourcePerms(a.GroupPerms); err != nil {
		return err
	}
	if _, err := buildAccount(a, ""); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.home == "" {
		return ErrNoHome
	}
	file := m.plainFile
	if old := m.snap.Load().accounts[a.AccessKey]; old != nil {
		file = old.file
	}
	return m.editLocked(file, func(root *yaml.Node) error {
		accounts := ensureSeq(root, keyAccounts)
		entry := removeAccount(accounts, a.AccessKey)
		if entry == nil {
			entry = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		}
		mergeAccount(entry, a)
		accounts.Content = append(accounts.Content, entry)
		return nil
	})
}

// DeleteAccount is deleteAccessConfig: it removes the account from its
// file and reports whether there was one.
func (m *Manager) DeleteAccount(accessKey string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if accessKey == "" || m.home == "" {
		return false, nil
	}
	old := m.snap.Load().accounts[accessKey]
	if old == nil {
		return false, nil
	}
	found := false
	err := m.editLocked(old.file, func(root *yaml.Node) error {
		if accounts := fieldNode(root, keyAccounts); accounts != nil && accounts.Kind == yaml.SequenceNode {
			found = removeAccount(accounts, accessKey) != nil
		}
		if !found {
			return errNothingToDo
		}
		return nil
	})
	if errors.Is(err, errNothingToDo) {
		return false, nil
	}
	return found, err
}

// UpdateGlobalWhiteAddrs is updateGlobalWhiteAddrsConfig: it sets file's
// globalWhiteRemoteAddresses (file "" is the plain file). It reports false,
// as Java does, for nil addrs and for a file that does not exist, is a
// directory, is outside Home or ends in .yaml (Java's check is written
// that way). Unlike Java it refuses patterns it cannot build.
func (m *Manager) UpdateGlobalWhiteAddrs(addrs []string, file string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.home == "" {
		return false, ErrNoHome
	}
	if file == "" {
		file = m.plainFile
	}
	file, err := filepath.Abs(file)
	if err != nil || addrs == nil || !m.whiteFileOK(file) {
		return false, nil
	}
	for _, p := range addrs {
		if _, err := parseAddrPattern(p); err != nil {
			return false, err
		}
	}
	err = m.editLocked(file, func(root *yaml.Node) error {
		setField(root, keyGlobalWhite, stringSeq(addrs))
		return nil
	})
	return err == nil, err
}

func (m *Manager) whiteFileOK(file string) bool {
	fi, err := os.Stat(file)
	if err != nil || fi.IsDir() {
		return false
	}
	if !strings.HasPrefix(file, m.home) {
		return false
	}
	return !(!strings.HasSuffix(file, ".yml") && strings.HasSuffix(file, ".yaml"))
}

var errNothingToDo = errors.New("acl: nothing to change")

// editLocked rewrites file with edit applied and its dataVersion bumped,
// then reloads. m.mu must be held.
func (m *Manager) editLocked(file string, edit func(root *yaml.Node) error) error {
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("acl: %s: %w", file, err)
	}
	root, err := decodeRoot(data)
	if err != nil {
		return fmt.Errorf("acl: %s: %w", file, err)
	}
	if root == nil {
		root = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("acl: %s: the document is not a mapping", file)
	}
	if err := edit(root); err != nil {
		return err
	}
	bumpVersion(root)
	if err := writeYAML(file, root); err != nil {
		return err
	}
	return m.reloadLocked()
}

// bumpVersion is updateAclConfigFileVersion: counter+1, timestamp now.
func bumpVersion(root *yaml.Node) {
	var counter int64
	if v, _ := dataVersion(fieldNode(root, keyDataVersion)); v != nil {
		counter = v.Counter
	}
	entry := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	setField(entry, "counter", intNode(counter+1))
	setField(entry, "timestamp", intNode(nowMillis()))
	setField(root, keyDataVersion, &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{entry}})
}

// writeYAML replaces file atomically: a temporary file, synced, renamed.
func writeYAML(file string, root *yaml.Node) error {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("acl: encoding %s: %w", file, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("acl: encoding %s: %w", file, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".tmp*")
	if err != nil {
		return fmt.Errorf("acl: writing %s: %w", file, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("acl: writing %s: %w", file, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("acl: writing %s: %w", file, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("acl: writing %s: %w", file, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("acl: writing %s: %w", file, err)
	}
	return nil
}

// fieldNode is the value of key in mapping m, or nil.
func fieldNode(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return deref(m.Content[i+1])
		}
	}
	return nil
}

// setField sets key in mapping m, replacing its value (the last one, if
// repeated) or appending it.
func setField(m *yaml.Node, key string, v *yaml.Node) {
	for i := len(m.Content) - 2; i >= 0; i -= 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, strNode(key), v)
}

// ensureSeq returns the sequence under key, replacing a null or missing one.
func ensureSeq(m *yaml.Node, key string) *yaml.Node {
	if n := fieldNode(m, key); n != nil && n.Kind == yaml.SequenceNode {
		return n
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	setField(m, key, n)
	return n
}

// removeAccount takes the entry with accessKey out of the accounts
// sequence and returns it (nil when there is none).
func removeAccount(accounts *yaml.Node, accessKey string) *yaml.Node {
	for i, e := range accounts.Content {
		e = deref(e)
		if e == nil || e.Kind != yaml.MappingNode {
			continue
		}
		if k, _, _ := stringValue(mappingFields(e, true)["accesskey"]); k == accessKey {
			accounts.Content = append(accounts.Content[:i], accounts.Content[i+1:]...)
			return e
		}
	}
	return nil
}

// mergeAccount is createAclAccessConfigMap: accessKey and admin always,
// the other fields when given.
func mergeAccount(entry *yaml.Node, a Account) {
	setField(entry, "accessKey", strNode(a.AccessKey))
	if a.SecretKey != "" {
		setField(entry, "secretKey", strNode(a.SecretKey))
	}
	if a.WhiteRemoteAddress != "" {
		setField(entry, "whiteRemoteAddress", strNode(a.WhiteRemoteAddress))
	}
	setField(entry, "admin", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(a.Admin)})
	if a.DefaultTopicPerm != "" {
		setField(entry, "defaultTopicPerm", strNode(a.DefaultTopicPerm))
	}
	if a.DefaultGroupPerm != "" {
		setField(entry, "defaultGroupPerm", strNode(a.DefaultGroupPerm))
	}
	if a.TopicPerms != nil {
		setField(entry, "topicPerms", stringSeq(a.TopicPerms))
	}
	if a.GroupPerms != nil {
		setField(entry, "groupPerms", stringSeq(a.GroupPerms))
	}
}

// strNode is a string scalar, quoted when SnakeYAML would read it plain as
// something else (12345678, yes, 1:30…).
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if implicitKind(s) != kindStr {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func intNode(v int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10)}
}

func stringSeq(ss []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, s := range ss {
		n.Content = append(n.Content, strNode(s))
	}
	return n
}
