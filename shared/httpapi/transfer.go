package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/xqtour/xqtour/shared/service/transfer"
)

// The export and import of a whole event (its format, checks and staging
// are shared/service/transfer's): here only the requests and answers.

// MaxEventImportBody is the body limit of POST /tournaments/import: an
// export of a large event is well over MaxBody. (Behind API Gateway the HTTP
// API's own 10 MB payload limit, and Lambda's 6 MB request, apply first: an
// event larger than one export page goes in parts.)
const MaxEventImportBody = 32 << 20

// ExportPageBytes is the most one page of GET /tournaments/{tid}/export
// holds by default (transfer.PageBytes).
const ExportPageBytes = transfer.PageBytes

// WithExportPageBytes sets the most one export page holds (ExportPageBytes
// by default), so a test can page a small event.
func WithExportPageBytes(n int) Option { return func(a *API) { a.exportPage = n } }

// WithExportKeyPagedPlayers sets the most entrants an event has whose
// export is version 1, read whole for every page (transfer.Options'
// KeyPagedPlayers: service.DefaultPairJobPlayers by default); a larger
// event's pages each read their own items (version 2). A test sets it
// small to export a small event so.
func WithExportKeyPagedPlayers(n int) Option { return func(a *API) { a.exportKeyPaged = n } }

// importOut is POST /tournaments/import's answer. A multi-part import's
// answers add how many items the whole export has, where to send the next
// part, and (first part only) the token that authorises the parts.
type importOut struct {
	TournamentID string `json:"tournamentId"`
	Items        int    `json:"items"`
	Games        int    `json:"games"`
	Total        int    `json:"total,omitempty"`
	Next         string `json:"next,omitempty"`
	ImportToken  string `json:"importToken,omitempty"`
}

// GET /tournaments/{tid}/export — organiser: the whole event as JSON lines,
// in pages (?after= the cursor of the previous page's next, ?limit= at most
// this many items a page), refused (export_changed) once the event changed
// since its first: each cut from a fresh read of the event (version 1), or
// for a big event reading its own items alone (version 2; transfer.Export).
func (a *API) exportEvent(c *call) (int, any, error) {
	tid := c.r.PathValue("tid")
	q := transfer.Query{After: c.r.URL.Query().Get("after")}
	if s := c.r.URL.Query().Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			q.Malformed = badRequest("invalid_query", "limit: want an item count ≥ 1")
		}
		q.Limit = n
	}
	q.Link = func(cursor string) string {
		link := "/tournaments/" + tid + "/export?after=" + cursor
		if q.Limit > 0 {
			link += "&limit=" + strconv.Itoa(q.Limit)
		}
		return link
	}
	page, err := a.transfer.Export(c.ctx(), tid, a.eventCaller(c), q)
	if err != nil {
		return 0, nil, err
	}
	var next *string
	if page.Next != "" {
		next = &page.Next
	}
	return http.StatusOK, raw{contentType: "application/x-ndjson", data: page.Body, next: next}, nil
}

// importStatus is the status of each outcome of an import.
var importStatus = map[transfer.Outcome]int{transfer.Made: http.StatusCreated, transfer.Staged: http.StatusAccepted, transfer.Repeated: http.StatusOK}

// POST /tournaments/import — anyone, as creating an event is: the body is an
// export (201, the event created whole), the first page of a paged export
// (202 with the import's token), or a later page sent with that token as
// Authorization: Bearer (202 staged; 201 with the last; 200 a page sent
// before). transfer.Import and ImportPart check what an import may write.
func (a *API) importEvent(c *call) (int, any, error) {
	if err := checkExportType(c.r); err != nil {
		return 0, nil, err
	}
	first, lines := exportBody(c.body)
	var format struct {
		Format string `json:"format"`
	}
	var res *transfer.Imported
	if json.Unmarshal(first, &format) == nil && format.Format == transfer.PartFormat {
		var head transfer.PartHeader
		if err := decodeHeader(c, first, &head); err != nil {
			return 0, nil, err
		}
		scheme, token, _ := strings.Cut(strings.TrimSpace(c.r.Header.Get("Authorization")), " ")
		if !strings.EqualFold(scheme, "Bearer") {
			token = ""
		}
		var err error
		if res, err = a.transfer.ImportPart(c.ctx(), head, lines, strings.TrimSpace(token), a.mirror.CopyMarks(c.ctx(), head.TournamentID)); err != nil {
			return 0, nil, err
		}
	} else {
		var head transfer.Header
		if err := decodeHeader(c, first, &head); err != nil {
			return 0, nil, err
		}
		var err error
		if res, err = a.transfer.Import(c.ctx(), head, lines, a.mirror.CopyMarks(c.ctx(), head.TournamentID)); err != nil {
			return 0, nil, err
		}
	}
	out := importOut{TournamentID: res.TournamentID, Items: res.Items, Games: res.Games, Total: res.Total, ImportToken: res.Token}
	if res.More {
		out.Next = "/tournaments/import"
	}
	return importStatus[res.Outcome], out, nil
}

// exportBody splits an import body into its header line and item lines.
func exportBody(body []byte) (head []byte, items [][]byte) {
	lines := bytes.Split(bytes.TrimSpace(body), []byte("\n"))
	for i := range lines {
		lines[i] = bytes.TrimSpace(lines[i]) // a CRLF file reads the same
	}
	return lines[0], lines[1:]
}

// decodeHeader decodes an export's first line into v, as strictly as any
// request body (unknown fields, duplicate keys).
func decodeHeader(c *call, line []byte, v any) error {
	if err := (&call{r: c.r, body: line}).decode(v); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return badRequest(e.Code, "the first line must be the export header: "+e.Message)
		}
		return err
	}
	return nil
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
