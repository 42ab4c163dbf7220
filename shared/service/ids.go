package service

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
)

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewID returns a fresh identifier with a one-letter kind prefix (t tournament,
// p player, o official, m team, g game): 80 random bits, unguessable.
func NewID(kind byte) string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	return string(kind) + idEncoding.EncodeToString(b)
}

// NewToken returns a token for (scope, id) and the hash to store; only the hash is kept.
func NewToken(scope, id string) (token, hash string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = scope + "." + id + "." + idEncoding.EncodeToString(b)
	return token, HashToken(token)
}

// HashToken is the hash of a token that is stored in its place.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// TokenMatches reports whether token is the one hash was stored for,
// comparing in constant time so that response timing leaks nothing of the
// hash.
func TokenMatches(token, hash string) bool {
	return subtle.ConstantTimeCompare([]byte(HashToken(token)), []byte(hash)) == 1
}

// IDLength is a kind letter and 80 bits in base32.
const IDLength = 1 + 16

// ValidID reports whether s is an id of the given kind as the server makes
// them. Checked at the edge, before any read: a key the store would refuse
// (DynamoDB allows 2,048 bytes) or that names nothing never costs a read.
func ValidID(kind byte, s string) bool {
	if len(s) != IDLength || s[0] != kind {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}
