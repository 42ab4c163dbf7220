package httpapi

import (
	"fmt"
	"net/url"
	"strconv"
)

// maxPageRows is the default and largest page of a players' table or
// crosstable: 1,000 rows of an 11-round crosstable are ~1.2 MB of JSON, far
// inside Lambda's 6 MB response, and a table of up to 1,000 players comes
// whole, as it always did.
const maxPageRows = 1000

// page is ?offset= and ?limit= of a paged table; limit < 0 is every row.
// asked says the request named either.
type page struct {
	offset, limit int
	asked         bool
}

// pageQuery reads ?offset= (rows to skip, default 0) and ?limit= (rows to
// return, 1…maxPageRows, default maxPageRows). A CSV export without a
// limit has every row: a spreadsheet wants the whole table.
func pageQuery(c *call, format string) (page, error) { return pageQueryUpTo(c, format, maxPageRows) }

// pageQueryUpTo is pageQuery for a table whose pages hold up to maxRows
// rows (the default too).
func pageQueryUpTo(c *call, format string, maxRows int) (page, error) {
	q := c.r.URL.Query()
	p := page{limit: maxRows, asked: q.Has("offset") || q.Has("limit")}
	if format == "csv" {
		p.limit = -1
	}
	if s := q.Get("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return page{}, badRequest("invalid_query", "offset: want a row count ≥ 0")
		}
		p.offset = n
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxRows {
			return page{}, badRequest("invalid_query", fmt.Sprintf("limit: want a row count from 1 to %d", maxRows))
		}
		p.limit = n
	}
	return p, nil
}

// end is the index after the page's last row of a table of total rows.
func (p page) end(total int) int {
	if p.limit < 0 {
		return total
	}
	return min(total, p.offset+p.limit)
}

// pageOut is what a paged table adds to its response: how many rows the
// whole table has, where this page starts, and the request for the next
// page when there is one.
type pageOut struct {
	Total  int     `json:"total"`
	Offset int     `json:"offset"`
	Next   *string `json:"next,omitempty"`
}

// pageInfo describes page p of a table of total rows read through c's
// route: next repeats the request's query with the offset moved on.
func pageInfo(c *call, p page, total int) pageOut {
	return pageLink(c.r.URL.Path, c.r.URL.Query(), p, total)
}

// pageLink describes page p of a table of total rows read at path with
// query q: next is that read with the offset moved on.
func pageLink(path string, q url.Values, p page, total int) pageOut {
	out := pageOut{Total: total, Offset: p.offset}
	if end := p.end(total); end < total {
		q.Set("offset", strconv.Itoa(end))
		if p.limit >= 0 {
			q.Set("limit", strconv.Itoa(p.limit))
		}
		next := (&url.URL{Path: path, RawQuery: q.Encode()}).String()
		out.Next = &next
	}
	return out
}

// pagedWhole reports whether a table of total rows is answered as it
// always was, whole and without page fields: the request named no page
// and the table fits the default one.
func (p page) pagedWhole(total int) bool { return !p.asked && (p.limit < 0 || total <= p.limit) }

// pageSlice returns page p of rows.
func pageSlice[R any](rows []R, p page) []R {
	if p.offset >= len(rows) {
		return []R{}
	}
	return rows[p.offset:p.end(len(rows))]
}
