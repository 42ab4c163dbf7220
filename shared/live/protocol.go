package live

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/xqtour/xqtour/shared/store"
)

// ClientMessage is what a client sends: subscribe or unsubscribe to one
// game, one event or one round of an event, or ping to keep an idle
// connection open.
type ClientMessage struct {
	Action     string    `json:"action"`
	Game       string    `json:"game,omitempty"`
	Tournament string    `json:"tournament,omitempty"`
	Round      *RoundRef `json:"round,omitempty"`
}

// RoundRef names one round of an event: {"tournament":tid,"round":n}.
type RoundRef struct {
	Tournament string `json:"tournament"`
	Round      int    `json:"round"`
}

// MaxRound bounds a round number a client may name (an event has at most 99
// rounds; a knockout's play-offs number a few more).
const MaxRound = 999

// RoundMessage is pushed to a round's followers after every change of any
// of its games: one compact message a broadcast page of every board
// applies without re-reading. Type is "move" (the last change was a move),
// "result" (the game is over: Result and Reason) or "clock" (a press, an
// offer, a ruling). Under the event's broadcast delay the message comes
// the delay after the change and shows the game as it stood then.
type RoundMessage struct {
	Type       string          `json:"type"`
	Tournament string          `json:"tournament"`
	Round      int             `json:"round"`
	Table      int             `json:"table"`
	Game       string          `json:"game"`
	Ply        int             `json:"ply"`
	Move       string          `json:"move,omitempty"`
	FEN        string          `json:"fen"`
	Clocks     json.RawMessage `json:"clocks"`
	Status     string          `json:"status"`
	Result     *string         `json:"result,omitempty"`
	Reason     *string         `json:"reason,omitempty"`
	ServerTime int64           `json:"serverTime"`
}

// DelayedMessage tells a follower, where no server holds a message back
// (the deployed fan-out, a Lambda that cannot wait minutes), that a game
// under a broadcast delay changed and what of it the public may see from
// VisibleAt: the client reads GET /games/{gid} then. It names no move.
type DelayedMessage struct {
	Type       string `json:"type"` // "delayed"
	Game       string `json:"game"`
	Tournament string `json:"tournament,omitempty"`
	Round      int    `json:"round,omitempty"`
	Table      int    `json:"table,omitempty"`
	VisibleAt  int64  `json:"visibleAt"`
	ServerTime int64  `json:"serverTime"`
}

// GameMessage is pushed after every change to a game: a move, a clock press,
// an offer or its answer, a result or a ruling.
type GameMessage struct {
	Type       string          `json:"type"` // "game"
	ServerTime int64           `json:"serverTime"`
	Game       json.RawMessage `json:"game"`
}

// TournamentMessage says what of an event changed, so a page re-reads only that.
type TournamentMessage struct {
	Type       string `json:"type"` // "tournament"
	ServerTime int64  `json:"serverTime"`
	Tournament string `json:"tournament"`
	// What is "round" (pairings or the round's state), "result" (a game of
	// the round ended or was corrected), "standings" (they changed with a
	// result) or "players" (registration, withdrawal, pause, resume).
	What string `json:"what"`
	// Round is the round concerned; 0 when the change is not about one round.
	Round int `json:"round"`
}

// Reply answers a client's message: "subscribed", "unsubscribed", "pong" or "error".
type Reply struct {
	Type       string      `json:"type"`
	Game       string      `json:"game,omitempty"`
	Tournament string      `json:"tournament,omitempty"`
	Round      *RoundRef   `json:"round,omitempty"`
	Error      *ReplyError `json:"error,omitempty"`
}

// ReplyError names what was wrong with a client's message, as the HTTP API's
// error model does.
type ReplyError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// What a TournamentMessage may report.
const (
	WhatRound     = "round"
	WhatResult    = "result"
	WhatStandings = "standings"
	WhatPlayers   = "players"
)

// validID accepts the ids the API hands out (letters, digits, '-' and '_'),
// so nothing else becomes part of a key.
var validID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// topic is the subscription partition of a game, an event or a round:
// "G#<gid>", "T#<tid>" or "T#<tid>#R#<nnnn>", the same prefixes as the
// items themselves.
func (m ClientMessage) topic() (string, *ReplyError) {
	switch {
	case m.Round != nil && (m.Game != "" || m.Tournament != ""):
		return "", &ReplyError{"invalid_field", "name one of game, tournament or round"}
	case m.Round != nil:
		if !validID.MatchString(m.Round.Tournament) {
			return "", &ReplyError{"invalid_field", "round.tournament: want an id of letters, digits, '-' or '_'"}
		}
		if m.Round.Round < 1 || m.Round.Round > MaxRound {
			return "", &ReplyError{"invalid_field", fmt.Sprintf("round.round: want a round number 1…%d", MaxRound)}
		}
		return RoundTopic(m.Round.Tournament, m.Round.Round), nil
	case m.Game != "" && m.Tournament != "":
		return "", &ReplyError{"invalid_field", "name either game or tournament, not both"}
	case m.Game != "":
		if !validID.MatchString(m.Game) {
			return "", &ReplyError{"invalid_field", "game: want an id of letters, digits, '-' or '_'"}
		}
		return store.GamePK(m.Game), nil
	case m.Tournament != "":
		if !validID.MatchString(m.Tournament) {
			return "", &ReplyError{"invalid_field", "tournament: want an id of letters, digits, '-' or '_'"}
		}
		return store.TournamentPK(m.Tournament), nil
	}
	return "", &ReplyError{"missing_field", "name the game, the tournament or the round to follow"}
}

// RoundTopic is the topic of round n of event tid.
func RoundTopic(tid string, n int) string { return store.TournamentPK(tid) + "#" + store.RoundSK(n) }

// roundOfTopic returns the event and round a round topic names.
func roundOfTopic(topic string) (tid string, n int, ok bool) {
	rest, ok := store.TournamentOf(topic)
	if !ok {
		return "", 0, false
	}
	tid, sk, ok := strings.Cut(rest, "#")
	if !ok {
		return "", 0, false
	}
	n, ok = store.RoundOf(sk)
	return tid, n, ok
}

// OriginAllowed is the socket's origin policy, the same deployed and local:
// a request without an Origin header (not a browser) and one from the
// socket's own host are allowed, as is an origin whose host matches one of
// patterns (path.Match syntax, e.g. "*.example.org"; "*" allows every
// origin). The socket carries only public data and reads no credentials, so
// allowing every origin is safe; the default keeps to the same origin.
func OriginAllowed(origin, host string, patterns []string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if p == "*" {
			return true
		}
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(u.Host)); ok {
			return true
		}
	}
	return false
}

// Origins splits a comma-separated LIVE_ORIGINS value into patterns.
func Origins(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
