package usage

import (
	"context"
	"sync"
)

// Note is what a request learns about itself while it is served, for the
// event its usage is counted for: the event (and game) its path names,
// then the event the request found once the application layer read it (a
// game route learns it from the game item: Found from the game layer's
// load). It is safe for the goroutines of one request.
type Note struct {
	mu          sync.Mutex
	event, game string
	found       bool
}

type noteKey struct{}

// WithNote is ctx carrying a new note of a request whose path names event
// tid and game gid (either or both ""), and the note.
func WithNote(ctx context.Context, tid, gid string) (context.Context, *Note) {
	n := &Note{event: tid, game: gid}
	return context.WithValue(ctx, noteKey{}, n), n
}

// Found records on ctx's note, if it has one, that the request concerns
// event tid (and game gid, if any), which exists: its usage is counted for
// that event.
func Found(ctx context.Context, tid, gid string) {
	n, _ := ctx.Value(noteKey{}).(*Note)
	if n == nil || tid == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.event, n.found = tid, true
	if gid != "" {
		n.game = gid
	}
}

// Names are the event and game the request concerns as known so far (for
// its log line), "" when none.
func (n *Note) Names() (tid, gid string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.event, n.game
}

// Counted is the event a finished request's usage is counted for: the
// one found, else the path's event when the answer shows that the event
// exists (shown: a success, or a refusal by the rules). A request refused
// before its event was read (bad input, credentials, an unknown id)
// counts for none, so made-up ids create no usage items.
func (n *Note) Counted(shown bool) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.found || shown {
		return n.event
	}
	return ""
}
