// See keys.go for the package documentation: the key design, access patterns
// and concurrency.

package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Sentinel errors; the HTTP layer maps them to statuses in one place.
var (
	// ErrNotFound: no item under that key.
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: the item changed since it was read (optimistic concurrency).
	ErrConflict = errors.New("store: conflict")
	// ErrThrottled: DynamoDB refused the request for capacity; retry later.
	ErrThrottled = errors.New("store: throttled")
	// ErrUnavailable: DynamoDB failed transiently (its 5xx errors, after the
	// SDK's own retries); nothing was decided, retry later.
	ErrUnavailable = errors.New("store: unavailable")
	// ErrOutcomeUnknown: a write failed in a way that may have applied it
	// (its answer was lost), and reading the table back to tell failed too;
	// it comes with the write's own error. A caller must not simply run the
	// step again, which might act twice.
	ErrOutcomeUnknown = errors.New("store: outcome of the write unknown")
	// ErrSuperseded: a write that may have been applied (its answer was
	// lost) found its item already at a later version than its own: applied
	// and then built upon by another writer, or never applied. It comes with
	// the write's own error (a conflict, or unavailable); only the caller can
	// tell from the item's content which it was (a game: whether it holds
	// the move).
	ErrSuperseded = errors.New("store: the item moved on past the write")
)

// Config says which table to use and where DynamoDB is.
type Config struct {
	// Table is the single table's name (TABLE_NAME).
	Table string
	// Region is the AWS region (AWS_REGION).
	Region string
	// Endpoint overrides the DynamoDB endpoint (DYNAMODB_ENDPOINT); local and test only.
	Endpoint string
}

// ConfigFromEnv reads TABLE_NAME, AWS_REGION and DYNAMODB_ENDPOINT.
func ConfigFromEnv() Config {
	c := Config{
		Table:    os.Getenv("TABLE_NAME"),
		Region:   os.Getenv("AWS_REGION"),
		Endpoint: os.Getenv("DYNAMODB_ENDPOINT"),
	}
	if c.Table == "" {
		c.Table = "xqtour"
	}
	if c.Region == "" {
		c.Region = "us-east-1"
	}
	return c
}

// Store is the single-table DynamoDB store. It is safe for concurrent use.
type Store struct {
	db    *dynamodb.Client
	table string
	// stamp, when set, names the stamps each write advances (stamp.go).
	stamp StampFunc
}

// Open builds a Store from c. With an Endpoint and no AWS credentials in the
// environment it uses static local credentials, so a local emulator needs no setup.
func Open(ctx context.Context, c Config) (*Store, error) {
	opts := []func(*config.LoadOptions) error{config.WithRegion(c.Region)}
	if c.Endpoint != "" && os.Getenv("AWS_ACCESS_KEY_ID") == "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("local", "local", "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("store: load AWS config: %w", err)
	}
	db := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if c.Endpoint != "" {
			o.BaseEndpoint = aws.String(c.Endpoint)
			// Emulators do not send DynamoDB's X-Amz-Crc32 response checksum.
			o.DisableValidateResponseChecksum = true
		}
		o.APIOptions = append(o.APIOptions, meterMiddleware, attemptsMiddleware)
	})
	return &Store{db: db, table: c.Table}, nil
}

// Record is one item: a key, its version and the aggregate's document.
type Record struct {
	PK, SK string
	// Kind names what Doc holds ("tournament", "player", "game", …).
	Kind string
	// Version is 0 for an item not stored yet; Put and Transact advance it.
	Version int64
	// Doc is the aggregate, encoded by its owner.
	Doc []byte
	// Expires, when non-zero, is the Unix time in seconds at which DynamoDB's TTL may delete the item.
	Expires int64
	// Parts counts the continuation items holding the rest of Doc when it is
	// larger than one item may be (MaxPart), or Body's staged parts; the
	// store manages it.
	Parts int
	// Body, when not nil, is a document of any size kept beside Doc (which
	// is then the head's own, small) in parts written before the head's
	// write, outside its transaction, and published by it (parts.go: staged
	// documents). Reads return it joined; a write whose Body is what was
	// read writes the head alone.
	Body []byte
	// Build names the staged parts that hold Body as stored; the store
	// manages it.
	Build string
	// staged is Body as read under Build, to tell an unchanged Body.
	staged []byte
	// next is the build this write is publishing, between staging and the
	// transaction's answer.
	next *staging
}

// MaxPart is how much of a document one item holds. DynamoDB items are at
// most 400 KB; a larger document (a 10,000-player round) continues in items
// "<SK>#~part001", "#~part002", … written and read with its head, atomically.
const MaxPart = 350_000

// split returns the head's share of the document and the continuation items.
func (r *Record) split() (head []byte, parts []*Record) {
	if len(r.Doc) <= MaxPart {
		return r.Doc, nil
	}
	head = r.Doc[:MaxPart]
	for i, off := 1, MaxPart; off < len(r.Doc); i, off = i+1, off+MaxPart {
		// A part expires with its head: DynamoDB's TTL deletes each item on its own.
		parts = append(parts, &Record{PK: r.PK, SK: partSK(r.SK, i), Kind: KindPart, Doc: r.Doc[off:min(off+MaxPart, len(r.Doc))], Expires: r.Expires})
	}
	return head, parts
}

// Size returns the item's size as DynamoDB bills it (attribute names plus values).
func (r *Record) Size() int {
	n := len("PK") + len(r.PK) + len("SK") + len(r.SK) + len("kind") + len(r.Kind) +
		len("ver") + numberSize(r.Version) + len("doc") + len(r.Doc)
	if r.Expires != 0 {
		n += len("ttl") + numberSize(r.Expires)
	}
	if r.Build != "" {
		n += len("build") + len(r.Build) + len("parts") + numberSize(int64(r.Parts))
	}
	return n
}

func numberSize(v int64) int { return 1 + (len(strconv.FormatInt(v, 10))+1)/2 }

func (r *Record) item(version int64) map[string]types.AttributeValue {
	it := r.itemWith(version, r.Doc, r.Parts)
	if r.Build != "" {
		it["build"] = &types.AttributeValueMemberS{Value: r.Build}
	}
	return it
}

func (r *Record) itemWith(version int64, doc []byte, parts int) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{
		"PK":   &types.AttributeValueMemberS{Value: r.PK},
		"SK":   &types.AttributeValueMemberS{Value: r.SK},
		"kind": &types.AttributeValueMemberS{Value: r.Kind},
		"ver":  &types.AttributeValueMemberN{Value: strconv.FormatInt(version, 10)},
	}
	if len(doc) > 0 { // an empty binary trips emulators; absence reads back the same
		it["doc"] = &types.AttributeValueMemberB{Value: doc}
	}
	if parts > 0 {
		it["parts"] = &types.AttributeValueMemberN{Value: strconv.Itoa(parts)}
	}
	if r.Expires != 0 {
		it["ttl"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(r.Expires, 10)}
	}
	return it
}

func fromItem(it map[string]types.AttributeValue) (*Record, error) {
	r := &Record{}
	var err error
	str := func(name string) string {
		if v, ok := it[name].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return ""
	}
	num := func(name string) int64 {
		v, ok := it[name].(*types.AttributeValueMemberN)
		if !ok {
			return 0
		}
		n, perr := strconv.ParseInt(v.Value, 10, 64)
		if perr != nil {
			err = fmt.Errorf("store: attribute %s: %w", name, perr)
		}
		return n
	}
	r.PK, r.SK, r.Kind, r.Build = str("PK"), str("SK"), str("kind"), str("build")
	r.Version, r.Expires, r.Parts = num("ver"), num("ttl"), int(num("parts"))
	if v, ok := it["doc"].(*types.AttributeValueMemberB); ok {
		r.Doc = v.Value
	}
	return r, err
}

func key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: pk},
		"SK": &types.AttributeValueMemberS{Value: sk},
	}
}

// Get reads one item with a strongly consistent read.
func (s *Store) Get(ctx context.Context, pk, sk string) (*Record, error) {
	out, err := s.db.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      &s.table,
		Key:            key(pk, sk),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, wrap("get "+pk+"/"+sk, err)
	}
	if out.Item == nil {
		return nil, fmt.Errorf("get %s/%s: %w", pk, sk, ErrNotFound)
	}
	r, err := fromItem(out.Item)
	if err != nil {
		return nil, err
	}
	return s.joined(ctx, r)
}

// join appends a split document's continuation items to its head, or
// reads a staged document's Body from its build's parts; parts that are not
// the head's are a torn read (errTorn, see parts.go).
func (s *Store) join(ctx context.Context, r *Record) error {
	if r.Parts == 0 && r.Build == "" {
		return nil
	}
	raw, err := s.query(ctx, r.PK, partsPrefix(r), 0)
	if err != nil {
		return err
	}
	parts := raw[:0]
	for _, p := range raw {
		if ownPart(r, p.SK) { // a split document's prefix also covers builds' parts
			parts = append(parts, p)
		}
	}
	if err := checkParts(r, parts); err != nil {
		return err
	}
	r.attach(parts)
	return nil
}

// Key names one item.
type Key struct{ PK, SK string }

// GetMany reads several items in one round trip (strongly consistent). Missing
// items are absent from the result, which is keyed by Key. A key given twice
// is read once: DynamoDB refuses a BatchGetItem that names an item twice.
func (s *Store) GetMany(ctx context.Context, keys ...Key) (map[Key]*Record, error) {
	out := make(map[Key]*Record, len(keys))
	if len(keys) > 1 {
		seen := make(map[Key]bool, len(keys))
		keys = slices.DeleteFunc(slices.Clone(keys), func(k Key) bool {
			dup := seen[k]
			seen[k] = true
			return dup
		})
	}
	for start := 0; start < len(keys); start += 100 {
		chunk := keys[start:min(start+100, len(keys))]
		req := &types.KeysAndAttributes{ConsistentRead: aws.Bool(true)}
		for _, k := range chunk {
			req.Keys = append(req.Keys, key(k.PK, k.SK))
		}
		items := map[string]types.KeysAndAttributes{s.table: *req}
		for len(items) > 0 {
			res, err := s.db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: items})
			if err != nil {
				return nil, wrap("batch get", err)
			}
			for _, it := range res.Responses[s.table] {
				r, err := fromItem(it)
				if err != nil {
					return nil, err
				}
				if r, err = s.joined(ctx, r); errors.Is(err, ErrNotFound) {
					continue // deleted while a torn read was repeated
				} else if err != nil {
					return nil, err
				}
				out[Key{r.PK, r.SK}] = r
			}
			items = res.UnprocessedKeys
		}
	}
	return out, nil
}

// Put writes r if nobody changed it since it was read: a new record (Version 0)
// must not exist yet; a stored one must still be at r.Version. On success
// r.Version is advanced; a lost race is ErrConflict.
func (s *Store) Put(ctx context.Context, r *Record) error {
	if len(r.Doc) > MaxPart || r.Parts > 0 || r.Body != nil {
		return s.Transact(ctx, []*Record{r})
	}
	cond, vals := condition(r)
	actx, tries := withAttempts(ctx)
	_, err := s.db.PutItem(actx, &dynamodb.PutItemInput{
		TableName:                 &s.table,
		Item:                      r.item(r.Version + 1),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeValues: vals,
	})
	if err = wrap("put "+r.PK+"/"+r.SK, err); err != nil {
		if !maybeApplied(err, tries) {
			return err
		}
		switch applied, superseded, lerr := s.landed(ctx, []*Record{r}, nil); {
		case lerr != nil:
			return fmt.Errorf("%w: %w (reading back: %v)", ErrOutcomeUnknown, err, lerr)
		case superseded:
			return fmt.Errorf("%w: %w", ErrSuperseded, err)
		case !applied:
			return err
		}
	}
	s.advance(ctx, []written{{r.PK, r.SK, r.Version == 0}})
	r.Version++
	return nil
}

func condition(r *Record) (string, map[string]types.AttributeValue) {
	if r.Version == 0 {
		return "attribute_not_exists(PK)", nil
	}
	return "ver = :v", map[string]types.AttributeValue{
		":v": &types.AttributeValueMemberN{Value: strconv.FormatInt(r.Version, 10)},
	}
}

// Transact writes up to 100 records atomically, each under Put's condition; any
// lost race fails them all with ErrConflict. Check records are only
// version-checked, not written.
func (s *Store) Transact(ctx context.Context, writes []*Record, checks ...*Record) error {
	return s.transact(ctx, writes, nil, checks)
}

// TransactDelete deletes the records in deletes and writes those in writes,
// atomically: each deletion under the condition that the item is still at
// the version read (a lost race is ErrConflict), each write under Put's.
// A deleted document's continuation items go with it.
func (s *Store) TransactDelete(ctx context.Context, deletes []*Record, writes ...*Record) error {
	return s.transact(ctx, writes, deletes, nil)
}

func (s *Store) transact(ctx context.Context, writes, deletes, checks []*Record) error {
	var items []types.TransactWriteItem
	for _, r := range deletes {
		if r.Version == 0 {
			return fmt.Errorf("store: delete %s/%s: a record not read cannot be deleted", r.PK, r.SK)
		}
		cond, vals := condition(r)
		items = append(items, types.TransactWriteItem{Delete: &types.Delete{
			TableName:                 &s.table,
			Key:                       key(r.PK, r.SK),
			ConditionExpression:       aws.String(cond),
			ExpressionAttributeValues: vals,
		}})
		for j := 1; j <= r.Parts && r.Build == ""; j++ { // a build's parts go once the head has (below)
			items = append(items, types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: key(r.PK, partSK(r.SK, j))}})
		}
	}
	// Staged bodies are written first, one part at a time (parts.go); only
	// their heads go in the transaction.
	p := &pacer{}
	var fresh []staging
	defer func() {
		for _, r := range writes {
			r.next = nil
		}
	}()
	fail := func(err error) error {
		for _, st := range fresh {
			s.drop(ctx, p, st)
		}
		return err
	}
	newParts := make([]int, len(writes))
	for i, r := range writes {
		cond, vals := condition(r)
		if r.Body != nil {
			if len(r.Doc) > MaxPart {
				return fail(fmt.Errorf("store: %s/%s: a staged document's head of %d bytes exceeds %d", r.PK, r.SK, len(r.Doc), MaxPart))
			}
			next := staging{pk: r.PK, sk: r.SK, build: r.Build, parts: r.Parts}
			if r.Build == "" || !bytes.Equal(r.Body, r.staged) {
				st, err := s.stage(ctx, p, r)
				if err != nil {
					return fail(err)
				}
				fresh, next = append(fresh, st), st
			}
			r.next = &next
			newParts[i] = next.parts
			head := r.itemWith(r.Version+1, r.Doc, next.parts)
			head["build"] = &types.AttributeValueMemberS{Value: next.build}
			items = append(items, types.TransactWriteItem{Put: &types.Put{
				TableName:                 &s.table,
				Item:                      head,
				ConditionExpression:       aws.String(cond),
				ExpressionAttributeValues: vals,
			}})
			if r.Build == "" { // a split document's parts, now replaced by the build's
				for j := 1; j <= r.Parts; j++ {
					items = append(items, types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: key(r.PK, partSK(r.SK, j))}})
				}
			}
			continue
		}
		head, parts := r.split()
		newParts[i] = len(parts)
		items = append(items, types.TransactWriteItem{Put: &types.Put{
			TableName:                 &s.table,
			Item:                      r.itemWith(r.Version+1, head, len(parts)),
			ConditionExpression:       aws.String(cond),
			ExpressionAttributeValues: vals,
		}})
		// The head's condition guards its parts: they change only with it,
		// and carry its version so a reader can tell them from another write's.
		for _, p := range parts {
			items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: &s.table, Item: p.item(r.Version + 1)}})
		}
		for j := len(parts) + 1; j <= r.Parts; j++ { // parts the document no longer needs
			items = append(items, types.TransactWriteItem{Delete: &types.Delete{TableName: &s.table, Key: key(r.PK, partSK(r.SK, j))}})
		}
	}
	for _, r := range checks {
		cond, vals := condition(r)
		items = append(items, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
			TableName:                 &s.table,
			Key:                       key(r.PK, r.SK),
			ConditionExpression:       aws.String(cond),
			ExpressionAttributeValues: vals,
		}})
	}
	if err := checkTransact(items); err != nil {
		return fail(err)
	}
	actx, tries := withAttempts(ctx)
	if _, err := s.db.TransactWriteItems(actx, &dynamodb.TransactWriteItemsInput{TransactItems: items}); err != nil {
		err = wrap("transact", err)
		if !maybeApplied(err, tries) || (len(writes) == 0 && len(deletes) == 0) {
			return fail(err)
		}
		// An outcome not known leaves the staged parts: the head may name them.
		switch applied, superseded, lerr := s.landed(ctx, writes, deletes); {
		case lerr != nil:
			return fmt.Errorf("%w: %w (reading back: %v)", ErrOutcomeUnknown, err, lerr)
		case superseded:
			return fmt.Errorf("%w: %w", ErrSuperseded, err)
		case !applied:
			return fail(err)
		}
	}
	var done []written
	for _, r := range deletes {
		done = append(done, written{r.PK, r.SK, false})
	}
	for _, r := range writes {
		done = append(done, written{r.PK, r.SK, r.Version == 0})
	}
	s.advance(ctx, done)
	for i, r := range writes {
		r.Version++
		old := staging{pk: r.PK, sk: r.SK, build: r.Build, parts: r.Parts}
		r.Parts = newParts[i]
		if next := r.next; next != nil && next.build != old.build {
			if old.build != "" { // the replaced build is nobody's now
				s.drop(ctx, p, old)
			}
			r.Build, r.staged = next.build, r.Body
			s.sweepBuilds(ctx, p, r.PK, r.SK, r.Build)
		}
	}
	for _, r := range deletes {
		if r.Build != "" {
			s.drop(ctx, p, staging{pk: r.PK, sk: r.SK, build: r.Build, parts: r.Parts})
		}
	}
	return nil
}

// Delete removes an item unconditionally; a missing item is not an error.
func (s *Store) Delete(ctx context.Context, pk, sk string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: &s.table, Key: key(pk, sk)})
	if err != nil {
		return wrap("delete "+pk+"/"+sk, err)
	}
	s.advance(ctx, []written{{pk, sk, false}})
	return nil
}

// Query returns every item under pk whose SK begins with prefix, in SK order,
// following LastEvaluatedKey across pages (pageSize 0 lets DynamoDB choose, up
// to 1 MB); a split document comes back whole.
func (s *Store) Query(ctx context.Context, pk, prefix string, pageSize int32) ([]*Record, error) {
	raw, err := s.query(ctx, pk, prefix, pageSize)
	if err != nil {
		return nil, err
	}
	return s.joinQueried(ctx, raw)
}

// QueryBelow is Query for the items under pk whose SK sorts before sk, and
// QueryFrom for those whose SK is sk or after: together they read a
// partition around the items a caller does not need, in key order.
func (s *Store) QueryBelow(ctx context.Context, pk, sk string) ([]*Record, error) {
	return s.queryJoined(ctx, pk, "SK < :p", sk)
}

// QueryFrom returns the items under pk whose SK is sk or sorts after it (see QueryBelow).
func (s *Store) QueryFrom(ctx context.Context, pk, sk string) ([]*Record, error) {
	return s.queryJoined(ctx, pk, "SK >= :p", sk)
}

func (s *Store) queryJoined(ctx context.Context, pk, cond, sk string) ([]*Record, error) {
	raw, err := s.queryWhere(ctx, pk, cond, sk, 0)
	if err != nil {
		return nil, err
	}
	return s.joinQueried(ctx, raw)
}

func (s *Store) query(ctx context.Context, pk, prefix string, pageSize int32) ([]*Record, error) {
	if prefix == "" { // DynamoDB refuses an empty string operand
		return s.queryWhere(ctx, pk, "", "", pageSize)
	}
	return s.queryWhere(ctx, pk, "begins_with(SK, :p)", prefix, pageSize)
}

// queryWhere runs a paginated Query on pk with an optional sort key
// condition on :p.
func (s *Store) queryWhere(ctx context.Context, pk, cond, operand string, pageSize int32) ([]*Record, error) {
	in := &dynamodb.QueryInput{
		TableName:                 &s.table,
		ConsistentRead:            aws.Bool(true),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: pk}},
	}
	if cond != "" {
		in.KeyConditionExpression = aws.String("PK = :pk AND " + cond)
		in.ExpressionAttributeValues[":p"] = &types.AttributeValueMemberS{Value: operand}
	}
	if pageSize > 0 {
		in.Limit = aws.Int32(pageSize)
	}
	var out []*Record
	p := dynamodb.NewQueryPaginator(s.db, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, wrap("query "+pk, err)
		}
		for _, it := range page.Items {
			r, err := fromItem(it)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// Export reads every item of the table (a paginated Scan). Only the local stack
// uses it, to snapshot its embedded table; the deployed API never scans.
func (s *Store) Export(ctx context.Context) ([]*Record, error) {
	var out []*Record
	p := dynamodb.NewScanPaginator(s.db, &dynamodb.ScanInput{TableName: &s.table, ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, wrap("scan", err)
		}
		for _, it := range page.Items {
			r, err := fromItem(it)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// Import writes records as they are (versions kept), 25 at a time; it restores a snapshot.
func (s *Store) Import(ctx context.Context, recs []*Record) error {
	for start := 0; start < len(recs); start += 25 {
		var reqs []types.WriteRequest
		for _, r := range recs[start:min(start+25, len(recs))] {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: r.item(r.Version)}})
		}
		items := map[string][]types.WriteRequest{s.table: reqs}
		for len(items) > 0 {
			out, err := s.db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: items})
			if err != nil {
				return wrap("import", err)
			}
			items = out.UnprocessedItems
		}
	}
	return nil
}

// CreateTable creates the table with the key schema above if it does not
// exist, and returns once it is ACTIVE: DynamoDB answers CreateTable with
// CREATING and refuses reads and writes (ResourceNotFoundException) until
// then. The deployed table comes from template.yaml; this serves the local
// stack and tests.
func (s *Store) CreateTable(ctx context.Context) error {
	_, err := s.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &s.table})
	var nf *types.ResourceNotFoundException
	switch {
	case errors.As(err, &nf):
		_, err = s.db.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:   &s.table,
			BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{
				{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS},
			},
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange},
			},
		})
		var inUse *types.ResourceInUseException
		if err != nil && !errors.As(err, &inUse) { // in use: another process created it meanwhile
			return wrap("create table", err)
		}
	case err != nil:
		return wrap("describe table", err)
	}
	return s.WaitActive(ctx, TableWait)
}

// TableWait bounds how long CreateTable waits for the table to be ACTIVE
// (DynamoDB takes seconds; the embedded server tens of milliseconds).
const TableWait = 5 * time.Minute

// WaitActive polls DescribeTable until the table is ACTIVE, at most for max.
func (s *Store) WaitActive(ctx context.Context, max time.Duration) error {
	w := dynamodb.NewTableExistsWaiter(s.db, func(o *dynamodb.TableExistsWaiterOptions) {
		// The SDK's default waits 20 s between polls: right for AWS, where a
		// table takes that long, but the embedded server's is ready in
		// milliseconds. Back-off from 10 ms to 5 s serves both.
		o.MinDelay, o.MaxDelay = 10*time.Millisecond, 5*time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: &s.table}, max); err != nil {
		return fmt.Errorf("store: table %s is not ACTIVE: %w", s.table, err)
	}
	return nil
}

// wrap turns SDK errors into this package's sentinels, keeping the cause.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var ccf *types.ConditionalCheckFailedException
	var tce *types.TransactionCanceledException
	var api smithy.APIError
	var resp *smithyhttp.ResponseError
	var send *smithyhttp.RequestSendError
	switch {
	case errors.As(err, &ccf):
		return fmt.Errorf("%s: %w", op, ErrConflict)
	case errors.As(err, &tce):
		// The reasons say why: a failed condition or a concurrent transaction
		// is a lost race; a throttled item is capacity, to be retried; anything
		// else (a validation error) is a fault, not the client's conflict.
		codes := make([]string, 0, len(tce.CancellationReasons))
		for _, r := range tce.CancellationReasons {
			codes = append(codes, aws.ToString(r.Code))
		}
		switch {
		case slices.Contains(codes, "ConditionalCheckFailed"), slices.Contains(codes, "TransactionConflict"):
			return fmt.Errorf("%s: %w", op, ErrConflict)
		case slices.Contains(codes, "ThrottlingError"), slices.Contains(codes, "ProvisionedThroughputExceeded"), slices.Contains(codes, "RequestLimitExceeded"):
			return fmt.Errorf("%s: %w: %v", op, ErrThrottled, err)
		}
		return fmt.Errorf("store: %s: %w", op, err)
	case errors.As(err, &api):
		switch api.ErrorCode() {
		case "ProvisionedThroughputExceededException", "RequestLimitExceeded", "ThrottlingException":
			return fmt.Errorf("%s: %w: %v", op, ErrThrottled, err)
		case "ConditionalCheckFailedException", "TransactionConflictException":
			return fmt.Errorf("%s: %w", op, ErrConflict)
		case "InternalServerError", "ServiceUnavailable", "TransactionInProgressException":
			return fmt.Errorf("%s: %w: %v", op, ErrUnavailable, err)
		}
		if errors.As(err, &resp) && resp.HTTPStatusCode() >= 500 {
			return fmt.Errorf("%s: %w: %v", op, ErrUnavailable, err)
		}
	case errors.As(err, &resp) && resp.HTTPStatusCode() >= 500:
		return fmt.Errorf("%s: %w: %v", op, ErrUnavailable, err)
	case errors.As(err, &send):
		// The connection failed or closed without an answer, after the
		// SDK's retries: transient, and the write may have been applied.
		return fmt.Errorf("%s: %w: %v", op, ErrUnavailable, err)
	}
	return fmt.Errorf("store: %s: %w", op, err)
}
