package httpapi_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/service"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// The attacks of issue #24 on POST /tournaments/import, reproduced over
// HTTP by a stranger holding no token of the victim's event: each fails on
// the code before the fix (the import trusted what it was sent).

var lowerBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// predictedGameID is how game ids were made before they were keyed: anyone
// could compute the id of any event's next games.
func predictedGameID(tid string, round, table, n int) string {
	sum := sha256.Sum256([]byte(tid + "/" + strconv.Itoa(round) + "/" + strconv.Itoa(table) + "/" + strconv.Itoa(n)))
	return "g" + lowerBase32.EncodeToString(sum[:10])
}

// randomID is an id of kind as the server makes them.
func randomID(kind byte) string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	return string(kind) + lowerBase32.EncodeToString(b)
}

// mintToken is a token of the stranger's own making for (scope, id), and its hash.
func mintToken(scope, id string) (token, hash string) {
	token = scope + "." + id + "." + randomID('k')[1:]
	sum := sha256.Sum256([]byte(token))
	return token, hex.EncodeToString(sum[:])
}

// exportLines splits an export into its header (decoded) and item lines.
func exportLines(t *testing.T, body []byte) (map[string]any, [][]byte) {
	t.Helper()
	lines := bytes.Split(bytes.TrimSpace(body), []byte("\n"))
	var head map[string]any
	if err := json.Unmarshal(lines[0], &head); err != nil {
		t.Fatal(err)
	}
	return head, lines[1:]
}

// joinExport is an unpaged export of items, its header announcing them.
func joinExport(head map[string]any, items [][]byte) []byte {
	h := map[string]any{}
	for k, v := range head {
		h[k] = v
	}
	h["items"] = len(items)
	delete(h, "partItems")
	delete(h, "snapshot")
	delete(h, "next")
	b, _ := json.Marshal(h)
	return bytes.Join(append([][]byte{b}, items...), []byte("\n"))
}

// itemOf decodes an export line's attributes.
func itemOf(t *testing.T, line []byte) map[string]map[string]string {
	t.Helper()
	var it map[string]map[string]string
	if err := json.Unmarshal(line, &it); err != nil {
		t.Fatal(err)
	}
	return it
}

func lineOf(it map[string]map[string]string) []byte {
	b, _ := json.Marshal(it)
	return b
}

// findLine is the export line of item pk/sk.
func findLine(t *testing.T, items [][]byte, pk, sk string) []byte {
	t.Helper()
	for _, l := range items {
		if it := itemOf(t, l); it["PK"]["S"] == pk && it["SK"]["S"] == sk {
			return l
		}
	}
	t.Fatalf("no item %s/%s in the export", pk, sk)
	return nil
}

// forgeGame is a game item of the export moved to game id gid, its link
// (the JSON ahead of the game's moves) changed by edit.
func forgeGame(t *testing.T, line []byte, gid string, edit func(link map[string]any)) []byte {
	t.Helper()
	it := itemOf(t, line)
	doc, err := base64.StdEncoding.DecodeString(it["doc"]["B"])
	if err != nil {
		t.Fatal(err)
	}
	n, k := binary.Uvarint(doc)
	var link map[string]any
	if err := json.Unmarshal(doc[k:k+int(n)], &link); err != nil {
		t.Fatal(err)
	}
	edit(link)
	lj, _ := json.Marshal(link)
	out := binary.AppendUvarint(nil, uint64(len(lj)))
	out = append(append(out, lj...), doc[k+int(n):]...)
	it["doc"]["B"] = base64.StdEncoding.EncodeToString(out)
	it["PK"]["S"] = "G#" + gid
	return lineOf(it)
}

// strangerExport is an export of an event of the stranger's own, made on a
// stack of their own: a real export whose items they then edit.
func strangerExport(t *testing.T) (fixture, map[string]any, [][]byte) {
	t.Helper()
	lab := apitest.New(t)
	f := newFixture(t, lab)
	head, items := exportLines(t, export(t, lab, f.tid, f.org))
	return f, head, items
}

// The critical attack: a stranger imports an event of their own carrying a
// game item under the id of the victim's round-1 game (predictable before
// the fix) with a link naming the victim's event and players, and token
// hashes of the stranger's making. The import is refused; the victim's
// pairing makes its own game, which the victim's players play and the
// stranger's tokens cannot touch.
func TestImportAttack_PlantedFutureGame(t *testing.T) {
	s := apitest.New(t)
	victim := newField(t, s, `{"name":"Victim Open","rounds":3}`, 2)
	a, b := victim.players[0], victim.players[1]

	// Which of the two round 1 makes red: an identical event elsewhere shows it.
	lab := apitest.New(t)
	probe := newField(t, lab, `{"name":"Victim Open","rounds":3}`, 2)
	if probe.pair(t, lab, `{}`, http.StatusCreated).Pairings[0].Red != probe.players[0].ID {
		a, b = b, a
	}
	f, head, items := strangerExport(t)
	redTok, redHash := mintToken(victim.ev.ID, a.ID)
	blackTok, blackHash := mintToken(victim.ev.ID, b.ID)
	planted := predictedGameID(victim.ev.ID, 1, 1, 1)
	items = append(items, forgeGame(t, findLine(t, items, "G#"+f.gid, "GAME"), planted, func(l map[string]any) {
		l["t"], l["r"], l["n"], l["rp"], l["bp"], l["rh"], l["bh"] = victim.ev.ID, 1, 1, a.ID, b.ID, redHash, blackHash
	}))
	r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: joinExport(head, items), Header: ndjson, Invalid: true})
	if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `link names tournament \"`+victim.ev.ID) {
		t.Errorf("the planted games' import: %d %s, want 400 naming the foreign link", r.Status, r.Body) // and on: what the stranger could do then
	}
	if r := s.Get("/games/" + planted); r.Status != http.StatusNotFound {
		t.Errorf("the planted game is there: %d", r.Status)
	}

	round := victim.pair(t, s, `{}`, http.StatusCreated)
	p := round.Pairings[0]
	if p.GameID == planted {
		t.Fatalf("round 1 table 1 is game %s, the id the stranger predicted", p.GameID)
	}
	s.Post("/tournaments/"+victim.ev.ID+"/rounds/1/start", victim.ev.Token, nil).Want(t, http.StatusOK)
	for _, tok := range []string{redTok, blackTok} {
		if r := s.Post("/games/"+p.GameID+"/moves", tok, `{"move":"h2e2","ply":0}`); r.Status != http.StatusUnauthorized && r.Status != http.StatusForbidden {
			t.Fatalf("the stranger's token moved in the victim's game: %d %s", r.Status, r.Body)
		}
	}
	s.Post("/games/"+p.GameID+"/moves", victim.byID[p.Red].Token, `{"move":"h2e2","ply":0}`).Want(t, http.StatusOK)
}

// A game item with a random id whose link names the victim's round 1,
// table 1 would, when it ended, write the victim's result, so that the real
// game could never end. The import is refused, and the real game ends.
func TestImportAttack_SquattedResult(t *testing.T) {
	s := apitest.New(t)
	victim := newField(t, s, `{"name":"Victim Open","rounds":3}`, 2)
	round := victim.pair(t, s, `{}`, http.StatusCreated)
	p := round.Pairings[0]
	s.Post("/tournaments/"+victim.ev.ID+"/rounds/1/start", victim.ev.Token, nil).Want(t, http.StatusOK)

	f, head, items := strangerExport(t)
	squat := randomID('g')
	tok, hash := mintToken(victim.ev.ID, p.Red)
	items = append(items, forgeGame(t, findLine(t, items, "G#"+f.gid, "GAME"), squat, func(l map[string]any) {
		l["t"], l["r"], l["n"], l["rp"], l["bp"], l["rh"] = victim.ev.ID, 1, p.Table, p.Red, p.Black, hash
	}))
	if r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: joinExport(head, items), Header: ndjson, Invalid: true}); r.Status != http.StatusBadRequest {
		t.Errorf("the squatting game's import: %d %s, want 400", r.Status, r.Body) // and on: what the stranger could do then
	}
	if r := s.Post("/games/"+squat+"/resign", tok, `{}`); r.Status != http.StatusNotFound {
		t.Errorf("the squatting game resigned: %d %s", r.Status, r.Body)
	}
	s.Post("/games/"+p.GameID+"/resign", victim.byID[p.Black].Token, `{}`).Want(t, http.StatusOK)
	var r1 struct {
		Pairings []struct {
			GameID string `json:"gameId"`
			Result *string
		}
	}
	s.Get("/tournaments/"+victim.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &r1)
	if r1.Pairings[0].Result == nil || *r1.Pairings[0].Result != "1-0" {
		t.Fatalf("round 1 table 1 after the real game ended: %+v", r1.Pairings[0])
	}
}

// A forged first page of a paged import, for an event about to be moved
// here, used to be stored at once under the event's keys: when the real
// import came, the stranger's arbiter was in the moved event. Now the first
// page must prove it is of its event (the event's key derives its id), the
// parts are staged apart from the event's keys, and a second import while
// one is staged is refused, never merged.
func TestImportAttack_PreSeededPagedImport(t *testing.T) {
	src := apitest.New(t, httpapi.WithExportPageBytes(pageBytes))
	dst := apitest.New(t)
	real := newFixture(t, src)
	pages := exportPages(t, src, real.tid, real.org, "")
	if len(pages) < 3 {
		t.Fatalf("%d pages", len(pages))
	}

	// The stranger's first page: a tournament item of their own event
	// under the real id, and an arbiter of theirs, token of their making.
	_, shead, sitems := strangerExport(t)
	lab := itemOf(t, sitems[0]) // the stranger's export begins with its event item
	labTid := strings.TrimPrefix(lab["PK"]["S"], "T#")
	lab["PK"]["S"] = "T#" + real.tid
	meta := lab["doc"]["B"]
	doc, _ := base64.StdEncoding.DecodeString(meta)
	lab["doc"]["B"] = base64.StdEncoding.EncodeToString(bytes.ReplaceAll(doc, []byte(labTid), []byte(real.tid)))
	oid := randomID('o')
	arbTok, arbHash := mintToken(real.tid, oid)
	official, _ := json.Marshal(map[string]any{"ID": oid, "Role": "arbiter", "Name": "Mallory", "TokenHash": arbHash})
	arb := map[string]map[string]string{"PK": {"S": "T#" + real.tid}, "SK": {"S": "O#" + oid}, "kind": {"S": "official"}, "ver": {"N": "1"},
		"doc": {"B": base64.StdEncoding.EncodeToString(official)}}
	head := map[string]any{"format": "xqtour-event", "version": 1, "tournamentId": real.tid, "exportedAt": shead["exportedAt"],
		"items": 40, "partItems": 2, "snapshot": strings.Repeat("ab", 32)}
	hb, _ := json.Marshal(head)
	forged := bytes.Join([][]byte{hb, lineOf(lab), lineOf(arb)}, []byte("\n"))
	r := dst.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: forged, Header: ndjson, Invalid: true})
	if r.Status != http.StatusForbidden || r.ErrorCode() != "unproven_export" {
		t.Fatalf("the forged first page: %d %s, want 403 unproven_export", r.Status, r.Body)
	}
	if n := tableItems(t, dst.Store); n != 0 {
		t.Fatalf("the forged first page left %d items", n)
	}
	// Long after, the real import comes.
	dst.Clock.Advance(25 * 3600e9)
	var begun struct {
		ImportToken string `json:"importToken"`
	}
	importEvent(dst, pages[0]).Want(t, http.StatusAccepted).Decode(t, &begun)
	if n := countItems(t, dst, "T#"); n != 0 {
		t.Fatalf("the first page wrote %d items under the event's keys; its parts are staged apart", n)
	}
	// While it is staged, neither a first page nor a whole export of the
	// event is taken: the import is never merged with another.
	if r := importEvent(dst, pages[0]); r.Status != http.StatusConflict || r.ErrorCode() != "import_in_progress" {
		t.Fatalf("a second first page while staged: %d %s", r.Status, r.Body)
	}
	if r := importEvent(dst, export(t, src, real.tid, real.org)); r.Status != http.StatusConflict || r.ErrorCode() != "import_in_progress" {
		t.Fatalf("a whole export while a paged import is staged: %d %s", r.Status, r.Body)
	}
	for i, p := range pages[1:] {
		want := http.StatusAccepted
		if i == len(pages)-2 {
			want = http.StatusCreated
		}
		importPart(dst, p, begun.ImportToken).Want(t, want)
		if i < len(pages)-2 {
			dst.Get("/tournaments/"+real.tid).Want(t, http.StatusNotFound)
		}
	}
	dst.Get("/tournaments/"+real.tid).Want(t, http.StatusOK)
	if n := countItems(t, dst, "J#"); n != 1 { // the import's state, kept to acknowledge a repeated part
		t.Fatalf("%d items left in the import's staging area, want only its state", n)
	}
	if r := dst.Post("/games/"+real.gid+"/result", arbTok, `{"result":"0-1","reason":"arbiter"}`); r.Status != http.StatusUnauthorized {
		t.Fatalf("the stranger's arbiter token in the moved event: %d %s", r.Status, r.Body)
	}
	dst.Post("/games/"+real.gid+"/result", real.arb, `{"result":"0-1","reason":"arbiter"}`).Want(t, http.StatusOK)
}

// The variant: a stranger imports a whole fake event under the public id of
// an event about to be moved here, so the public page shows their name and
// the real import fails with already_exists. Now the fake is refused: it
// cannot carry the key the id is derived from.
func TestImportAttack_FakeEventUnderPublicID(t *testing.T) {
	src, dst := apitest.New(t), apitest.New(t)
	real := newFixture(t, src)
	f, head, items := strangerExport(t)
	var fake [][]byte
	for _, l := range items {
		fake = append(fake, bytes.ReplaceAll(l, []byte(f.tid), []byte(real.tid))) // keys of T#<id>
	}
	meta := itemOf(t, fake[0])
	doc, _ := base64.StdEncoding.DecodeString(meta["doc"]["B"])
	doc = bytes.ReplaceAll(doc, []byte(f.tid), []byte(real.tid))
	meta["doc"]["B"] = base64.StdEncoding.EncodeToString(bytes.ReplaceAll(doc, []byte("Matrix Open"), []byte("Mallory's Open")))
	fake[0] = lineOf(meta)
	head["tournamentId"] = real.tid
	r := dst.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: joinExport(head, fake), Header: ndjson, Invalid: true})
	if r.Status != http.StatusForbidden || r.ErrorCode() != "unproven_export" {
		t.Fatalf("the fake event: %d %s, want 403 unproven_export", r.Status, r.Body)
	}
	dst.Get("/tournaments/"+real.tid).Want(t, http.StatusNotFound)
	importEvent(dst, export(t, src, real.tid, real.org)).Want(t, http.StatusCreated)
	if name := dst.Get("/tournaments/" + real.tid).JSON()["name"]; name != "Matrix Open" {
		t.Fatalf("the moved event is called %v", name)
	}
}

// Corrupt or foreign contents are refused with a 400 naming the item and
// the problem, and leave nothing: no game that 500s on every read, no event
// item naming another event, no item under a sort key no event has.
func TestImportAttack_UncheckedContents(t *testing.T) {
	f, head, items := strangerExport(t)
	gameLine := findLine(t, items, "G#"+f.gid, "GAME")
	replace := func(old []byte, with ...[]byte) [][]byte {
		var out [][]byte
		for _, l := range items {
			if bytes.Equal(l, old) {
				out = append(out, with...)
			} else {
				out = append(out, l)
			}
		}
		return out
	}
	withDoc := func(line []byte, doc []byte) []byte {
		it := itemOf(t, line)
		it["doc"]["B"] = base64.StdEncoding.EncodeToString(doc)
		return lineOf(it)
	}
	gameDoc, _ := base64.StdEncoding.DecodeString(itemOf(t, gameLine)["doc"]["B"])
	metaDoc, _ := base64.StdEncoding.DecodeString(itemOf(t, items[0])["doc"]["B"])
	other := randomID('t')
	unknown := func(sk string) []byte {
		return lineOf(map[string]map[string]string{"PK": {"S": "T#" + f.tid}, "SK": {"S": sk}, "kind": {"S": "player"}, "ver": {"N": "1"},
			"doc": {"B": base64.StdEncoding.EncodeToString([]byte(`{}`))}})
	}
	extraAttr := itemOf(t, items[1])
	extraAttr["GSI1PK"] = map[string]string{"S": "x"}
	for name, c := range map[string]struct {
		items [][]byte
		want  string
	}{
		"garbage game":          {replace(gameLine, withDoc(gameLine, []byte("\x05garbage, not a game"))), "G#" + f.gid + "/GAME: a corrupt game"},
		"truncated game":        {replace(gameLine, withDoc(gameLine, gameDoc[:len(gameDoc)-3])), "G#" + f.gid + "/GAME: a corrupt game"},
		"no game at all":        {replace(gameLine, withDoc(gameLine, nil)), "G#" + f.gid + "/GAME: a corrupt game"},
		"another event":         {replace(items[0], withDoc(items[0], bytes.ReplaceAll(metaDoc, []byte(f.tid), []byte(other)))), "its body names tournament"},
		"unknown sort key":      {append(items[:len(items):len(items)], unknown("Z#1")), "T#" + f.tid + "/Z#1: not a sort key an event has"},
		"a body of another key": {append(items[:len(items):len(items)], unknown("P#"+randomID('p'))), "its body is of"},
		"an attribute":          {replace(items[1], lineOf(extraAttr)), `GSI1PK\" is not one of the table's`},
	} {
		s := apitest.New(t)
		r := s.Do(apitest.Req{Method: "POST", Path: "/tournaments/import", Body: joinExport(head, c.items), Header: ndjson, Invalid: true})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), c.want) {
			t.Errorf("%s: %d %s, want 400 saying %q", name, r.Status, r.Body, c.want)
			continue
		}
		if n := tableItems(t, s.Store); n != 0 {
			t.Errorf("%s: a refused import left %d items", name, n)
		}
		for _, path := range []string{"/games/" + f.gid, "/games/" + f.gid + "/record"} {
			s.Get(path).Want(t, http.StatusNotFound)
		}
	}
}

// Game ids are keyed with the event's secret: nobody can compute a round's
// game ids before it is paired. And should an item that is not the
// pairing's hold a pairing's id all the same (planted before ids were
// keyed), pairing fails loudly, 409 game_id_taken, instead of adopting it,
// and so does every read of the round; the stranger's item is left as it was.
func TestPairing_GameIDsUnpredictableAndNeverAdopted(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Keyed","rounds":3}`, 2)
	rec, err := s.Store.Get(t.Context(), store.TournamentPK(f.ev.ID), store.MetaSK)
	if err != nil {
		t.Fatal(err)
	}
	var ev tournament.Tournament
	if err := json.Unmarshal(rec.Doc, &ev); err != nil || len(ev.Key) != 64 {
		t.Fatalf("the event item holds no key: %v %q", err, ev.Key)
	}
	if strings.Contains(string(s.Get("/tournaments/"+f.ev.ID).Body), ev.Key) {
		t.Fatal("the event's page shows its key")
	}
	next := service.GameID(ev.Key, f.ev.ID, 1, 1, 1) // only with the key
	// A foreign game (a standalone one) planted under that id.
	g := createGame(t, s, `{}`)
	foreign, err := s.Store.Get(t.Context(), store.GamePK(g.ID), store.GameSK)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Store.Put(t.Context(), &store.Record{PK: store.GamePK(next), SK: store.GameSK, Kind: store.KindGame, Doc: foreign.Doc}); err != nil {
		t.Fatal(err)
	}
	r := s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, `{}`)
	if r.Status != http.StatusConflict || r.ErrorCode() != "game_id_taken" || !strings.Contains(string(r.Body), next) {
		t.Fatalf("pairing over a foreign item: %d %s, want 409 game_id_taken naming %s", r.Status, r.Body, next)
	}
	// A read of the round writes nothing and makes no game; the pairing's
	// retry, which would make the missing game, fails loudly again.
	s.Get("/tournaments/"+f.ev.ID+"/rounds/1").Want(t, http.StatusOK)
	if r := s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, `{"round":1}`); r.ErrorCode() != "game_id_taken" {
		t.Fatalf("the pairing asked again for the round: %d %s", r.Status, r.Body)
	}
	if st := s.Get("/games/" + next).JSON(); st["tournament"] != nil {
		t.Fatalf("the foreign item was made the pairing's game: %v", st["tournament"])
	}
	for _, p := range f.players {
		if r := s.Post("/games/"+next+"/moves", p.Token, `{"move":"h2e2","ply":0}`); r.Status != http.StatusUnauthorized && r.Status != http.StatusForbidden {
			t.Fatalf("a player moved in the foreign item: %d %s", r.Status, r.Body)
		}
	}
	// Once the operator removes the item, the pairing asked again makes the game.
	if err := s.Store.Delete(t.Context(), store.GamePK(next), store.GameSK); err != nil {
		t.Fatal(err)
	}
	s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, `{"round":1}`).Want(t, http.StatusOK)
	var r1 roundJSON
	s.Get("/tournaments/"+f.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &r1)
	if r1.Pairings[0].GameID != next || r1.Pairings[0].GameID == predictedGameID(f.ev.ID, 1, 1, 1) {
		t.Fatalf("round 1 table 1 is game %s; keyed %s", r1.Pairings[0].GameID, next)
	}
	wantGame(t, s, next, r1.Pairings[0].Red, r1.Pairings[0].Black)
}

// plantGame stores, straight into the table, a copy of game from under id
// gid with its link changed by edit: an item planted before imports were
// checked, which no route can write any more.
func plantGame(t *testing.T, s *apitest.Server, from, gid string, edit func(link map[string]any)) {
	t.Helper()
	rec, err := s.Store.Get(t.Context(), store.GamePK(from), store.GameSK)
	if err != nil {
		t.Fatal(err)
	}
	n, k := binary.Uvarint(rec.Doc)
	var link map[string]any
	if err := json.Unmarshal(rec.Doc[k:k+int(n)], &link); err != nil {
		t.Fatal(err)
	}
	edit(link)
	lj, _ := json.Marshal(link)
	doc := binary.AppendUvarint(nil, uint64(len(lj)))
	doc = append(append(doc, lj...), rec.Doc[k+int(n):]...)
	if err := s.Store.Put(t.Context(), &store.Record{PK: store.GamePK(gid), SK: store.GameSK, Kind: store.KindGame, Doc: doc}); err != nil {
		t.Fatal(err)
	}
}

// A game's end writes only the result of the pairing that made it: an item
// that names the victim's round 1, table 1 but is not its pairing's game
// (planted before imports were checked) ends when its player resigns, but
// writes no result, and the real game still ends and is counted.
func TestGameEnd_NoResultSquatting(t *testing.T) {
	s := apitest.New(t)
	victim := newField(t, s, `{"name":"Victim Open","rounds":3}`, 2)
	p := victim.pair(t, s, `{}`, http.StatusCreated).Pairings[0]
	s.Post("/tournaments/"+victim.ev.ID+"/rounds/1/start", victim.ev.Token, nil).Want(t, http.StatusOK)
	squat := randomID('g')
	tok, hash := mintToken(victim.ev.ID, p.Red)
	plantGame(t, s, p.GameID, squat, func(l map[string]any) { l["rh"] = hash })
	s.Post("/games/"+squat+"/resign", tok, `{}`).Want(t, http.StatusOK)
	if n := countItems(t, s, "X#"); n != 0 {
		t.Fatalf("the squatting game's end wrote %d result items", n)
	}
	s.Post("/games/"+p.GameID+"/resign", victim.byID[p.Black].Token, `{}`).Want(t, http.StatusOK)
	var r1 roundJSON
	s.Get("/tournaments/"+victim.ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &r1)
	if r1.Pairings[0].Result == nil || *r1.Pairings[0].Result != "1-0" {
		t.Fatalf("round 1 table 1 after the real game ended: %+v", r1.Pairings[0])
	}
}
