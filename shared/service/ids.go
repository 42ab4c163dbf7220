package service

import (
	"crypto/rand"
	"crypto/sha256"
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
