package server

// xqtour patch: this file is not part of upstream minidyn. It lets a
// persistence layer see every committed change, restore items, and read a
// consistent image of every table, and it gives TransactWriteItems its undo
// steps (see NOTES.md).

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/truora/minidyn/core"
	"github.com/truora/minidyn/types"
)

// Change is one item as a committed write left it.
type Change struct {
	// Table names the table; Key is the item's internal key in it.
	Table, Key string
	// Item is the whole item, or nil when the write deleted it. It is the
	// engine's own value, which it replaces but never changes: read it, do
	// not change it.
	Item map[string]*types.Item
}

// journal collects a table's changes for onCommit while a write runs.
func (c *Client) journal(table string) func(string, map[string]*types.Item) {
	return func(key string, item map[string]*types.Item) {
		if c.onCommit == nil || c.restoring {
			return
		}

		c.pending = append(c.pending, Change{Table: table, Key: key, Item: item})
	}
}

// unlockAndCommit hands the write's changes to onCommit, still under the lock
// so that they arrive in the order they were made, then unlocks.
func (c *Client) unlockAndCommit() {
	if len(c.pending) > 0 {
		if c.onCommit != nil {
			c.onCommit(c.pending)
		}

		c.pending = nil
	}

	c.mu.Unlock()
}

type undoStep struct {
	table *core.Table
	key   string
	item  map[string]*types.Item
}

// undoStepFor copies the item a transaction step is about to change.
func (c *Client) undoStepFor(item TransactWriteItem) (undoStep, bool) {
	var tableName string

	var keyMap map[string]*AttributeValue

	switch {
	case item.Put != nil:
		tableName, keyMap = aws.ToString(item.Put.TableName), item.Put.Item
	case item.Update != nil:
		tableName, keyMap = aws.ToString(item.Update.TableName), item.Update.Key
	case item.Delete != nil:
		tableName, keyMap = aws.ToString(item.Delete.TableName), item.Delete.Key
	default: // a ConditionCheck changes nothing
		return undoStep{}, false
	}

	table, ok := c.tables[tableName]
	if !ok {
		return undoStep{}, false
	}

	key, err := table.Key(mapAttributeValueMapToTypes(keyMap))
	if err != nil {
		return undoStep{}, false
	}

	return undoStep{table: table, key: key, item: table.ItemImage(key)}, true
}

// OnCommit makes s call f with the items each successful write changed
// (PutItem, UpdateItem, DeleteItem, each item of BatchWriteItem, a whole
// TransactWriteItems at once), in commit order and under the engine's lock:
// f must not call s. A nil f stops it.
func (s *Server) OnCommit(f func([]Change)) {
	s.client.mu.Lock()
	defer s.client.mu.Unlock()

	s.client.onCommit = f
}

// Restore applies changes as they are, checking no condition and reporting
// them to no OnCommit: it reloads persisted items. Their tables must exist.
func (s *Server) Restore(changes []Change) error {
	c := s.client

	c.mu.Lock()
	defer c.mu.Unlock()

	c.restoring = true
	defer func() { c.restoring = false }()

	for _, ch := range changes {
		table, ok := c.tables[ch.Table]
		if !ok {
			return fmt.Errorf("minidyn: restore into missing table %q", ch.Table)
		}

		if err := table.ReplaceItem(ch.Key, ch.Item); err != nil {
			return err
		}
	}

	return nil
}

// ItemRef is a stored item, read-only: the engine never changes a stored item
// in place, it replaces it.
type ItemRef struct {
	Table, Key string
	item       map[string]*types.Item
}

// Item returns the item itself: read it, do not change it.
func (r ItemRef) Item() map[string]*types.Item { return r.item }

// Freeze returns every item of every table as they are at one instant, and
// runs atThatInstant (if not nil) while no write can happen, so a persistence
// layer can start a new log exactly there. Reading the items' images later,
// outside the lock, is safe: stored items are replaced, never changed.
func (s *Server) Freeze(atThatInstant func() error) ([]ItemRef, error) {
	c := s.client

	c.mu.Lock()
	defer c.mu.Unlock()

	n := 0
	for _, t := range c.tables {
		n += len(t.Data)
	}

	refs := make([]ItemRef, 0, n)

	for name, t := range c.tables {
		for k, item := range t.Data {
			refs = append(refs, ItemRef{Table: name, Key: k, item: item})
		}
	}

	if atThatInstant != nil {
		if err := atThatInstant(); err != nil {
			return nil, err
		}
	}

	return refs, nil
}
