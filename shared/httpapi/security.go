package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/service/mirror"
)

// nosniff tells browsers never to guess a response's type from its bytes: a
// record or a CSV holding a player's name is never run as HTML or script.
func nosniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// idKinds maps a path parameter to the one-letter kind its ids start with
// (newID, GameID): each id is the kind and 16 base32 letters.
var idKinds = map[string]byte{"tid": 't', "gid": 'g', "pid": 'p', "mid": 'm', "oid": 'o', "fid": 'f'}

var idKindNames = map[byte]string{'t': "an event", 'g': "a game", 'p': "a player", 'm': "a team", 'o': "an official", 'f': "a festival"}

// checkPathIDs refuses a path whose id parameters are not ids: 400 bad_id.
func checkPathIDs(r *http.Request, rt Route) error {
	for name, kind := range idKinds {
		if !strings.Contains(rt.Path, "{"+name+"}") {
			continue
		}
		if v := r.PathValue(name); !service.ValidID(kind, v) {
			return &Error{Status: http.StatusBadRequest, Code: "bad_id",
				Message: name + ": " + quote(clip(v, 40)) + " is not " + idKindNames[kind] + " id (" + string(kind) + " and 16 characters a-z, 2-7)"}
		}
	}
	return nil
}

// tokenShape reports whether a token's scope and principal ids could have
// been issued here (an event or game scope; a player, official, team,
// organiser or seat id), so a forged token costs no read.
func tokenShape(scope, id string) bool {
	switch {
	case service.ValidID('t', scope):
		return id == scope || service.ValidID('p', id) || service.ValidID('o', id) || service.ValidID('m', id)
	case service.ValidID('g', scope):
		return id == "red" || id == "black"
	case service.ValidID('f', scope): // a festival's organiser or official (E-3)
		return id == scope || service.ValidID('o', id)
	}
	return false
}

// isUUIDv4 reports whether s is a random (version 4, RFC 9562 variant) UUID
// in its 8-4-4-4-12 hex form. A nil or time-based UUID is guessable, and
// callers without a token share one idempotency scope.
func isUUIDv4(s string) bool {
	if !isUUID(s) {
		return false
	}
	return s[14] == '4' && strings.ContainsRune("89abAB", rune(s[19]))
}

// sameSecret compares a presented secret with the expected one in constant
// time (hashes of equal length), so timing leaks neither its bytes nor its length.
func sameSecret(got, want string) bool {
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}

// CreationKeyHeader carries the deployment's creation key (#11.15): the
// name the mirror's claims and imports send it under (one spelling).
const CreationKeyHeader = mirror.CreationKeyHeader

// OriginHeader carries the secret the CloudFront distribution adds.
const OriginHeader = "X-Origin-Verify"

// guard applies the deployment's protections before a request does any
// work: the CloudFront origin secret, the creation key of the "anyone"
// routes and the ids' format. The key and the secret are never logged.
func (a *API) guard(r *http.Request, rt Route) error {
	if a.originSecret != "" && !sameSecret(r.Header.Get(OriginHeader), a.originSecret) {
		return &Error{Status: http.StatusForbidden, Code: "direct_access", Message: "this API is served through its CloudFront distribution; call that address"}
	}
	if rt.Who.Has(RoleAnyone) && a.creationKey != "" {
		got := r.Header.Get(CreationKeyHeader)
		if got == "" {
			return &Error{Status: http.StatusUnauthorized, Code: "creation_key_required", Message: "creating events and games on this server needs its creation key in the " + CreationKeyHeader + " header"}
		}
		if !sameSecret(got, a.creationKey) {
			return &Error{Status: http.StatusForbidden, Code: "bad_creation_key", Message: "the " + CreationKeyHeader + " header does not hold this server's creation key"}
		}
	}
	return checkPathIDs(r, rt)
}

// cacheControl is what a response may be cached for: public reads briefly
// (a crowd polling standings or a game shares one answer per few seconds at
// a CDN and in browsers), everything else never — POST responses carry tokens.
func cacheControl(rt Route, status int) string {
	if rt.Method != http.MethodGet || !rt.Who.Has(RolePublic) || status != http.StatusOK {
		return "no-store"
	}
	switch {
	case rt.Path == "/openapi.json":
		return "public, max-age=300"
	case strings.HasPrefix(rt.Path, "/games/"):
		return "public, max-age=1" // a live board: one second behind at most
	}
	return "public, max-age=5"
}

// requireOrganiser checks the organiser's token against the event's META
// item alone: a mutation checks who calls before any event-wide read, so a
// stranger's request costs one item.
func (a *API) requireOrganiser(c *call, tid string) error {
	t, _, err := a.svc.Tournament(c.ctx(), tid)
	if err != nil {
		return err
	}
	_, err = a.requireRole(c, tid, organiserKnown(t), roleOrganiser)
	return err
}
