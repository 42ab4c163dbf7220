package embedded

import (
	"strings"

	sdktypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/truora/minidyn/server"
	"github.com/truora/minidyn/types"

	"github.com/xqtour/xqtour/shared/store"
)

// Feed calls f after every successful write (PutItem, UpdateItem, DeleteItem,
// TransactWriteItems, BatchWriteItem) with the items it changed, in the order
// the engine committed them, before the write is answered: the local
// stand-in for the table's DynamoDB Stream. f runs under the engine's lock, so
// it must hand the changes on without blocking and must not call the server;
// nil removes it.
func (s *Server) Feed(f func(table string, changes []store.Change)) {
	if f == nil {
		s.feed.Store(nil)
		return
	}
	s.feed.Store(&f)
	s.hook()
}

// Tap adds f to the listeners that hear every committed write, as Feed's
// does and under the same rules, besides Feed's own (the live fan-out and a
// mirror's sender follow one server).
func (s *Server) Tap(f func(table string, changes []store.Change)) {
	for {
		old := s.taps.Load()
		var fs []func(string, []store.Change)
		if old != nil {
			fs = append(fs, *old...)
		}
		fs = append(fs, f)
		if s.taps.CompareAndSwap(old, &fs) {
			break
		}
	}
	s.hook()
}

// hook installs the engine's commit hook once; the log (Open) and the feed
// share it.
func (s *Server) hook() {
	s.hooked.Do(func() { s.ddb.OnCommit(s.committed) })
}

// committed hears every committed write's changes, under the engine's lock,
// in commit order.
func (s *Server) committed(changes []server.Change) {
	if l := s.limiter.Load(); l != nil {
		l.committed(changes)
	}
	if s.wal != nil {
		s.logged.Store(true)
		s.wal.append(encodeChanges(make([]byte, 0, 512), changes))
	}
	var fs []func(string, []store.Change)
	if f := s.feed.Load(); f != nil {
		fs = append(fs, *f)
	}
	if taps := s.taps.Load(); taps != nil {
		fs = append(fs, *taps...)
	}
	if len(fs) == 0 {
		return
	}
	send := func(table string, out []store.Change) {
		for _, f := range fs {
			f(table, out)
		}
	}
	var table string
	var out []store.Change
	for _, c := range changes {
		if c.Table != table && len(out) > 0 {
			send(table, out)
			out = nil
		}
		table = c.Table
		out = append(out, change(c))
	}
	if len(out) > 0 {
		send(table, out)
	}
}

// change converts one committed change. A removal names its item by the
// engine's key, "<PK>.<SK>" (the store's partition keys hold no '.').
func change(c server.Change) store.Change {
	if c.Item == nil {
		pk, sk, _ := strings.Cut(c.Key, ".")
		return store.Change{Key: store.Key{PK: pk, SK: sk}}
	}
	attrs := make(map[string]sdktypes.AttributeValue, len(c.Item))
	for name, v := range c.Item {
		if a := attribute(v); a != nil {
			attrs[name] = a
		}
	}
	rec, err := store.RecordOf(attrs)
	if err != nil {
		return store.Change{Key: store.Key{PK: str(c.Item["PK"]), SK: str(c.Item["SK"])}}
	}
	return store.Change{Key: store.Key{PK: rec.PK, SK: rec.SK}, New: rec}
}

// attribute converts the engine's value; the store writes strings, numbers
// and binaries only, so other types are left out.
func attribute(v *types.Item) sdktypes.AttributeValue {
	switch {
	case v == nil:
		return nil
	case v.S != nil:
		return &sdktypes.AttributeValueMemberS{Value: *v.S}
	case v.N != nil:
		return &sdktypes.AttributeValueMemberN{Value: *v.N}
	case v.B != nil:
		return &sdktypes.AttributeValueMemberB{Value: append([]byte(nil), v.B...)}
	}
	return nil
}

func str(v *types.Item) string {
	if v == nil || v.S == nil {
		return ""
	}
	return *v.S
}
