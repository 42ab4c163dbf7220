package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The roles a token may hold (O-1) are the application layer's
// (service.Role); these are their names here.
const (
	roleOrganiser = service.Organiser
	roleArbiter   = service.Arbiter
	roleChief     = service.ChiefArbiter
	roleScribe    = service.Scribe
	rolePlayer    = service.Player
	roleCaptain   = service.Captain
)

// Principal is who a bearer token speaks for. Tokens read
// "<scope>.<id>.<secret>": scope is the tournament (or standalone game) the
// token belongs to and id the principal inside it, so the one item holding the
// token's hash is found without an index, and a token of another event or game
// is recognised as such (403) rather than unknown (401).
type Principal = service.Caller

var (
	errNoToken      = &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "this request needs an Authorization: Bearer token"}
	errUnknownToken = &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "unknown token"}
)

func forbidden(msg string) *Error {
	return &Error{Status: http.StatusForbidden, Code: "forbidden", Message: msg}
}

func bearer(r *http.Request) (token, scope, id string, err error) {
	// RFC 7235: the scheme is case-insensitive ("bearer" is Bearer).
	scheme, token, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", "", "", errNoToken
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 || !tokenShape(parts[0], parts[1]) {
		return "", "", "", errUnknownToken
	}
	return token, parts[0], parts[1], nil
}

// credential is a principal with the hash its token must match.
type credential struct {
	Principal
	hash string
}

// authenticate resolves the bearer token. known answers for principals whose
// hash the handler has already read (the event, the game), saving a read;
// anything else is read from its item (through shared/service).
func (a *API) authenticate(c *call, known func(scope, id string) (credential, bool)) (Principal, error) {
	token, scope, id, err := bearer(c.r)
	if err != nil {
		return Principal{}, err
	}
	cred, ok := credential{}, false
	if known != nil {
		cred, ok = known(scope, id)
	}
	if !ok {
		cred, err = a.lookupCredential(c, scope, id)
		// A token whose principal is gone (a registration removed) or never
		// was is unknown: 401, never a 404 that names the item looked for.
		if err != nil && toError(err).Status == http.StatusNotFound {
			return Principal{}, errUnknownToken
		}
		if err != nil {
			return Principal{}, err
		}
	}
	if !service.TokenMatches(token, cred.hash) {
		return Principal{}, errUnknownToken
	}
	// Every write to an event or a game is authenticated here first: the
	// one place a mirror's read-only event refuses it (mirror.go).
	if err := a.refuseMirrored(c); err != nil {
		return Principal{}, err
	}
	return cred.Principal, nil
}

// lookupCredential reads the holder of a token and its hash: a
// standalone game's seat with the game (games.go), anything else from its
// item (service.TokenHolder).
func (a *API) lookupCredential(c *call, scope, id string) (credential, error) {
	if strings.HasPrefix(scope, "g") {
		return a.gameSeatCredential(c, scope, id)
	}
	p, hash, err := a.svc.TokenHolder(c.ctx(), scope, id)
	return credential{p, hash}, err
}

// eventCaller is the Credential of an event command (service.Exec): the
// request's token checked against the event item the command read (the
// organiser's hash is in it) or its principal's item.
func (a *API) eventCaller(c *call) service.Credential {
	return func(_ context.Context, t *tournament.Tournament) (service.Caller, error) {
		p, err := a.authenticate(c, organiserKnown(t))
		if err == nil && p.Scope != t.ID && service.ValidID('f', p.Scope) && t.Festival == p.Scope {
			p.Scope = t.ID // a festival's token acts in the festival's sections (E-3)
		}
		return p, err
	}
}

// requireRole authenticates and checks that the principal belongs to scope
// with one of roles: a valid token of another event or the wrong role is 403.
func (a *API) requireRole(c *call, scope string, known func(scope, id string) (credential, bool), roles ...string) (Principal, error) {
	p, err := a.authenticate(c, known)
	if err != nil {
		return Principal{}, err
	}
	if p.Scope != scope {
		// A festival's token acts in the festival's sections (E-3).
		if ok, err := a.svc.InFestival(c.ctx(), p.Scope, scope); err != nil || !ok {
			if err != nil && !isNotFound(err) {
				return Principal{}, err
			}
			return Principal{}, forbidden("this token belongs to another event or game")
		}
		p.Scope = scope
	}
	if !slices.Contains(roles, p.Role) {
		return Principal{}, forbidden("the " + p.Role + "'s token may not do this; it needs: " + strings.Join(roles, " or "))
	}
	return p, nil
}
