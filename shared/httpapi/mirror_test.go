package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// eventKeyOf reads the event's key from its export's event item.
func eventKeyOf(t *testing.T, items [][]byte, tid string) string {
	t.Helper()
	it := itemOf(t, findLine(t, items, "T#"+tid, "META"))
	doc, err := base64.StdEncoding.DecodeString(it["doc"]["B"])
	if err != nil {
		t.Fatal(err)
	}
	var ev struct{ Key string }
	if err := json.Unmarshal(doc, &ev); err != nil {
		t.Fatal(err)
	}
	return ev.Key
}

// withDoc is an export line with its JSON document edited.
func withDoc(t *testing.T, line []byte, edit func(doc map[string]any)) []byte {
	t.Helper()
	it := itemOf(t, line)
	raw, _ := base64.StdEncoding.DecodeString(it["doc"]["B"])
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	b, _ := json.Marshal(doc)
	it["doc"]["B"] = base64.StdEncoding.EncodeToString(b)
	return lineOf(it)
}

// A mirror's change stream writes its own event and nothing else: the copy
// is claimed only with the event's key, arrives through the import, is
// read-only to every write route, and a batch naming another event's items,
// another partition, a game not of the event's pairings or a changed event
// key is refused whole, leaving the stack's own event as it was. A batch
// sent twice changes nothing; after the takeover the stream is refused and
// the copy is written.
func TestMirrorStreamWritesOnlyItsEvent(t *testing.T) {
	src, dst := apitest.New(t), apitest.New(t)
	f := newFixture(t, src)
	victim := newFixture(t, dst) // the target's own event
	_, items := exportLines(t, export(t, src, f.tid, f.org))
	key := eventKeyOf(t, items, f.tid)
	token := "mirror." + f.tid + ".s3cr3tmirrortokenforthetestonly"
	claim := func(tid, key string) *apitest.Resp {
		return dst.Post("/tournaments/"+tid+"/mirror/replica", "", map[string]any{"source": "http://127.0.0.1:1", "token": "mirror." + tid + ".s3cr3tmirrortokenforthetestonly", "eventKey": key})
	}
	if r := claim(f.tid, victim.tid+"0000000000000000000000000000000000000000000000"); r.Status != http.StatusForbidden || r.ErrorCode() != "unproven_export" {
		t.Fatalf("claim with a key not the event's: %d %s", r.Status, r.Body)
	}
	if r := claim(victim.tid, key); r.Status != http.StatusForbidden {
		t.Fatalf("claim of the target's own event with another event's key: %d %s", r.Status, r.Body)
	}
	claim(f.tid, key).Want(t, http.StatusCreated)
	importEvent(dst, export(t, src, f.tid, f.org)).Want(t, http.StatusCreated)

	// Read-only: every write route on the event or its games.
	for _, w := range []struct{ path, token, body string }{
		{"/tournaments/" + f.tid + "/players", f.org, `{"name":"X"}`},
		{"/tournaments/" + f.tid + "/rounds", f.org, `{}`},
		{"/games/" + f.gid + "/moves", f.ptoken, `{"move":"C2.5","ply":0,"press":true}`},
		{"/games/" + f.gid + "/result", f.arb, `{"result":"1-0"}`},
	} {
		r := dst.Do(apitest.Req{Method: "POST", Path: w.path, Token: w.token, Body: w.body})
		if r.Status != http.StatusConflict || r.ErrorCode() != "mirror_read_only" || !bytes.Contains(r.Body, []byte("http://127.0.0.1:1")) {
			t.Errorf("POST %s on the copy: %d %s", w.path, r.Status, r.Body)
		}
	}
	if m := dst.Get("/tournaments/"+f.tid).Want(t, http.StatusOK).JSON()["mirror"].(map[string]any); m["source"] != "http://127.0.0.1:1" {
		t.Errorf("the copy's mirror: %v", m)
	}

	send := func(tok string, to int, lines [][]byte, deleted []map[string]string) *apitest.Resp {
		raw := make([]json.RawMessage, len(lines))
		for i, l := range lines {
			raw[i] = l
		}
		if deleted == nil {
			deleted = []map[string]string{}
		}
		return dst.Post("/tournaments/"+f.tid+"/mirror/changes", tok, map[string]any{"to": to, "final": true, "items": raw, "deleted": deleted})
	}
	before := func() [][]byte { _, it := exportLines(t, export(t, dst, victim.tid, victim.org)); return it }()
	_, vitems := exportLines(t, export(t, dst, victim.tid, victim.org))
	playerLine := findLine(t, items, "T#"+f.tid, "P#"+f.pid)
	movedPlayer := itemOf(t, playerLine)
	movedPlayer["PK"]["S"] = "T#" + victim.tid
	attacks := map[string]struct {
		lines   [][]byte
		deleted []map[string]string
	}{
		"another event's player":              {lines: [][]byte{findLine(t, vitems, "T#"+victim.tid, "P#"+victim.pid)}},
		"the event's player moved to another": {lines: [][]byte{lineOf(movedPlayer)}},
		"another event's game":                {lines: [][]byte{findLine(t, vitems, "G#"+victim.gid, "GAME")}},
		"a game of no pairing":                {lines: [][]byte{forgeGame(t, findLine(t, items, "G#"+f.gid, "GAME"), randomID('g'), func(map[string]any) {})}},
		"the event's game onto the target's":  {lines: [][]byte{forgeGame(t, findLine(t, items, "G#"+f.gid, "GAME"), victim.gid, func(map[string]any) {})}},
		"an idempotency record":               {lines: [][]byte{[]byte(`{"PK":{"S":"I#x"},"SK":{"S":"IDEM"},"kind":{"S":"idempotency"},"ver":{"N":"1"}}`)}},
		"a changed event key": {lines: [][]byte{withDoc(t, findLine(t, items, "T#"+f.tid, "META"), func(d map[string]any) {
			d["Key"] = eventKeyOf(t, vitems, victim.tid)
		})}},
		"removing another event's player": {deleted: []map[string]string{{"PK": "T#" + victim.tid, "SK": "P#" + victim.pid}}},
		"removing the target's game":      {deleted: []map[string]string{{"PK": "G#" + victim.gid, "SK": "GAME"}}},
	}
	for name, a := range attacks {
		if r := send(token, 1, a.lines, a.deleted); r.Status/100 != 4 {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	if _, after := exportLines(t, export(t, dst, victim.tid, victim.org)); !equalLines(before, after) {
		t.Error("a refused batch changed the target's own event")
	}
	if r := send("mirror."+f.tid+".another", 1, nil, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("another stream's token: %d %s", r.Status, r.Body)
	}
	if r := send(f.org, 1, nil, nil); r.Status != http.StatusForbidden {
		t.Errorf("the organiser's token on the stream: %d %s", r.Status, r.Body)
	}

	// A move on the source, mirrored; sent again, nothing changes.
	src.Post("/games/"+f.gid+"/moves", f.ptoken, map[string]any{"move": "C2.5", "ply": 0, "press": true}).Want(t, http.StatusOK)
	_, items = exportLines(t, export(t, src, f.tid, f.org))
	game := findLine(t, items, "G#"+f.gid, "GAME")
	send(token, 1, [][]byte{game}, nil).Want(t, http.StatusOK)
	moves := func() int { return len(dst.Get("/games/"+f.gid).Want(t, http.StatusOK).JSON()["moves"].([]any)) }
	if n := moves(); n != 1 {
		t.Fatalf("the copy's game has %d moves, want 1", n)
	}
	if r := send(token, 1, [][]byte{game}, nil).Want(t, http.StatusOK).JSON(); r["lastSeq"] != 1.0 || moves() != 1 {
		t.Fatalf("a batch sent again: %v, %d moves", r, moves())
	}

	// Takeover: the copy is written here, the stream refused.
	to := dst.Post("/tournaments/"+f.tid+"/mirror/takeover", f.org, nil).Want(t, http.StatusOK).JSON()
	if to["sourceNotified"] != false {
		t.Errorf("takeover with the source out of reach: %v", to)
	}
	if r := send(token, 2, [][]byte{game}, nil); r.Status != http.StatusConflict || r.ErrorCode() != "mirror_taken_over" {
		t.Errorf("the stream after the takeover: %d %s", r.Status, r.Body)
	}
	dst.Post("/games/"+f.gid+"/result", f.arb, map[string]any{"result": "1-0"}).Want(t, http.StatusOK)
	if m := dst.Get("/tournaments/"+f.tid).Want(t, http.StatusOK).JSON()["mirror"]; m != nil {
		t.Errorf("the event taken over still shows a mirror: %v", m)
	}
}

func equalLines(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// The players' own entry takes no token, so the refusal authenticate asks
// never ran for it: a mirrored copy of an event taking entries refuses an
// entry with the same mirror_read_only as every other write, while the
// source still takes it.
func TestMirrorCopyRefusesEntries(t *testing.T) {
	src, dst := apitest.New(t), apitest.New(t)
	ev := newEvent(t, src, `{"name":"Open Entries","rounds":3}`)
	src.Post("/tournaments/"+ev.ID+"/entries/open", ev.Token, `{}`).Want(t, http.StatusOK)
	body := export(t, src, ev.ID, ev.Token)
	_, items := exportLines(t, body)
	dst.Post("/tournaments/"+ev.ID+"/mirror/replica", "", map[string]any{"source": "http://127.0.0.1:1",
		"token": "mirror." + ev.ID + ".s3cr3tmirrortokenforthetestonly", "eventKey": eventKeyOf(t, items, ev.ID)}).Want(t, http.StatusCreated)
	importEvent(dst, body).Want(t, http.StatusCreated)

	r := dst.Post("/tournaments/"+ev.ID+"/entries", "", `{"name":"Late Comer"}`)
	if r.Status != http.StatusConflict || r.ErrorCode() != "mirror_read_only" || !bytes.Contains(r.Body, []byte("http://127.0.0.1:1")) {
		t.Errorf("an entry on the copy: %d %s", r.Status, r.Body)
	}
	if n := len(dst.Get("/tournaments/"+ev.ID+"/players").Want(t, http.StatusOK).JSON()["players"].([]any)); n != 0 {
		t.Errorf("the copy has %d players after a refused entry", n)
	}
	src.Post("/tournaments/"+ev.ID+"/entries", "", `{"name":"Late Comer"}`).Want(t, http.StatusCreated)
}
