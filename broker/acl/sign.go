package acl

// What a request's signature covers and how it is computed (AclUtils,
// AclSigner, PlainAccessValidator.parse).

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"slices"
)

// The ext fields a signed request carries (SessionCredentials.ACCESS_KEY
// and SIGNATURE).
const (
	AccessKeyField = "AccessKey"
	SignatureField = "Signature"
)

// uniqueKeyQuery (MixAll.UNIQUE_MSG_QUERY_FLAG) is left out of the
// content too.
const uniqueKeyQuery = "_UNIQUE_KEY_QUERY"

// Content is what the signature covers: the values of ext in key order
// (Java String order, by UTF-16 code units), without Signature and
// _UNIQUE_KEY_QUERY, as UTF-8, followed by body.
func Content(ext map[string]string, body []byte) []byte {
	keys := make([]string, 0, len(ext))
	n := len(body)
	for k, v := range ext {
		if k == SignatureField || k == uniqueKeyQuery {
			continue
		}
		keys = append(keys, k)
		n += len(v)
	}
	slices.SortFunc(keys, compareJava)
	out := make([]byte, 0, n)
	for _, k := range keys {
		out = append(out, ext[k]...)
	}
	return append(out, body...)
}

// Sign is AclSigner.calSignature: base64(HMAC-SHA1(secretKey, data)).
func Sign(data []byte, secretKey string) string {
	mac := hmac.New(sha1.New, []byte(secretKey))
	mac.Write(data)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}
