package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"

	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/tournament"
)

// An event export is JSON lines: a header, then every item of the event as
// the table holds it, in DynamoDB JSON — the tournament's partition (META,
// players, officials, rounds, results, teams, lineups) and the item of every
// game its rounds paired. Versions and token hashes travel as they are, so
// every token of the event works on the stack it is imported into, and no
// token (only its hash) is ever in the file.

// exportFormat names the header's format.
const exportFormat = "xqtour-event"

// MaxEventImportBody is the body limit of POST /tournaments/import: an
// export of a large event is well over MaxBody. (Behind API Gateway the HTTP
// API's own 10 MB payload limit applies first.)
const MaxEventImportBody = 32 << 20

type exportHeader struct {
	Format       string `json:"format"`
	Version      int    `json:"version"`
	TournamentID string `json:"tournamentId"`
	ExportedAt   string `json:"exportedAt"`
	Items        int    `json:"items"`
}

type importOut struct {
	TournamentID string `json:"tournamentId"`
	Items        int    `json:"items"`
	Games        int    `json:"games"`
}

// GET /tournaments/{tid}/export — organiser: the whole event as JSON lines.
func (a *API) exportEvent(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	if err := a.requireOrganiser(c, tid); err != nil { // before the event-wide read
		return 0, nil, err
	}
	ev, err := a.loadEvent(c.ctx(), tid)
	if err != nil {
		return 0, nil, err
	}
	items, err := a.store.Items(c.ctx(), store.TournamentPK(tid))
	if err != nil {
		return 0, nil, err
	}
	var gids []string
	for _, rec := range ev.rounds {
		var r tournament.Round
		if err := json.Unmarshal(rec.Doc, &r); err != nil {
			return 0, nil, fmt.Errorf("decode round %s: %w", rec.SK, err)
		}
		for _, p := range r.Pairings {
			if p.GameID != "" {
				gids = append(gids, p.GameID)
			}
		}
	}
	slices.Sort(gids)
	for _, gid := range slices.Compact(gids) {
		game, err := a.store.Items(c.ctx(), store.GamePK(gid))
		if err != nil {
			return 0, nil, err
		}
		items = append(items, game...)
	}
	var b bytes.Buffer
	head, _ := json.Marshal(exportHeader{Format: exportFormat, Version: 1, TournamentID: tid, ExportedAt: rfc3339(c.nowMs()), Items: len(items)})
	b.Write(head)
	b.WriteByte('\n')
	for _, it := range items {
		line, err := it.MarshalJSON()
		if err != nil {
			return 0, nil, err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return http.StatusOK, raw{contentType: "application/x-ndjson", data: b.Bytes()}, nil
}

// POST /tournaments/import — anyone, as creating an event is: the body is an
// export. The event's items are created, never overwritten: an event that
// exists here already is 409, and the META item is written last, so the event
// is found only once everything else is in place; a failed import removes
// what it wrote, and sending the same export again completes it.
func (a *API) importEvent(c *call) (int, any, error) {
	if err := checkExportType(c.r); err != nil {
		return 0, nil, err
	}
	lines := bytes.Split(bytes.TrimSpace(c.body), []byte("\n"))
	var head exportHeader
	if err := (&call{r: c.r, body: lines[0]}).decode(&head); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return 0, nil, badRequest(e.Code, "the first line must be the export header: "+e.Message)
		}
		return 0, nil, err
	}
	if head.Format != exportFormat {
		return 0, nil, badRequest("invalid_export", `the first line must be an export header {"format":"xqtour-event",…}`)
	}
	if head.Version != 1 {
		return 0, nil, badRequest("invalid_export", fmt.Sprintf("export version %d is not one this server reads (1)", head.Version))
	}
	tid := head.TournamentID
	if !validID('t', tid) {
		return 0, nil, badRequest("invalid_export", "the header's tournamentId is missing or malformed")
	}
	if len(lines)-1 != head.Items {
		return 0, nil, badRequest("invalid_export", fmt.Sprintf("the header announces %d items but %d follow: the export is incomplete", head.Items, len(lines)-1))
	}
	var meta *store.Item
	items := make([]*store.Item, 0, len(lines))
	games := 0
	counts := map[string]int{} // the event's items by kind: the caps hold for an imported event too
	for i, line := range lines[1:] {
		it, err := store.ParseItem(line)
		if err != nil {
			return 0, nil, badRequest("invalid_export", fmt.Sprintf("line %d: %v", i+2, err))
		}
		gid, isGame := store.GameOf(it.PK)
		switch {
		case it.PK == store.TournamentPK(tid) && it.SK == store.MetaSK:
			if meta != nil || it.Kind != store.KindTournament {
				return 0, nil, badRequest("invalid_export", fmt.Sprintf("line %d: a second or malformed tournament item", i+2))
			}
			meta = it
			continue
		case it.PK == store.TournamentPK(tid):
			counts[store.SKPrefix(it.SK)]++
		case isGame && !validID('g', gid):
			return 0, nil, badRequest("invalid_export", fmt.Sprintf("line %d: %s is not a game id", i+2, quote(clip(it.PK, 40))))
		case isGame && it.SK == store.GameSK && it.Kind == store.KindGame:
			games++
		case isGame && store.IsPartOf(it.SK, store.GameSK) && it.Kind == store.KindPart:
		default:
			return 0, nil, badRequest("invalid_export", fmt.Sprintf("line %d: item %s/%s does not belong to tournament %s", i+2, it.PK, it.SK, tid))
		}
		items = append(items, it)
	}
	if meta == nil {
		return 0, nil, badRequest("invalid_export", "the export has no tournament item ("+store.TournamentPK(tid)+"/"+store.MetaSK+")")
	}
	for prefix, name := range map[string]string{store.PlayerPrefix: capPlayers, store.TeamPrefix: capTeams, store.OfficialPrefix: capOfficials} {
		if counts[prefix] > limitOf(name).Max {
			return 0, nil, tooMany(name, counts[prefix])
		}
	}
	if _, err := a.store.Get(c.ctx(), store.TournamentPK(tid), store.MetaSK); err == nil {
		return 0, nil, &Error{Status: http.StatusConflict, Code: "already_exists", Message: "tournament " + tid + " exists here already: it was imported or created before"}
	} else if !errors.Is(err, store.ErrNotFound) {
		return 0, nil, err
	}
	if err := a.store.CreateItems(c.ctx(), append(items, meta)); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return 0, nil, &Error{Status: http.StatusConflict, Code: "already_exists", Message: "an item of this export exists here with other content; nothing was imported"}
		}
		return 0, nil, err
	}
	return http.StatusCreated, importOut{TournamentID: tid, Items: len(items) + 1, Games: games}, nil
}

// checkExportType refuses an import body that is not an export: JSON lines
// (application/x-ndjson, application/jsonl, or text/plain); an absent
// Content-Type is read as an export too.
func checkExportType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/x-ndjson" || mt == "application/jsonl" || mt == "application/json" || mt == "text/plain") {
		return nil
	}
	return &Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
		Message: "send the export as application/x-ndjson (JSON lines), not " + quote(ct)}
}
