package service

import (
	"fmt"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/service/command"
	"github.com/xqtour/xqtour/shared/service/games"
	"github.com/xqtour/xqtour/shared/store"
)

// What another stack sends to be written here item by item (an event's
// import, a mirror's change stream) is checked item by item before any of
// it is written; these are the checks both make of one item.

// RefuseItem is the refusal of items another stack sent for one of them:
// nothing of them was written.
func RefuseItem(pk, sk, problem string) *command.Error {
	return command.BadRequest("invalid_export", fmt.Sprintf("item %s/%s: %s; nothing was imported", Clip(pk, 60), Clip(sk, 60), problem))
}

// DecodeSent decodes an event item another stack sent into v through its
// stored shape (DecodeItem), refusing it (RefuseItem) when it is not of
// kind or does not decode.
func DecodeSent(rec *store.Record, kind string, v any) error {
	if rec.Kind != kind {
		return RefuseItem(rec.PK, rec.SK, "kind "+quote(Clip(rec.Kind, 20))+", want "+kind)
	}
	if err := DecodeItem(rec, v); err != nil {
		return RefuseItem(rec.PK, rec.SK, "its body does not decode as a "+kind+": "+err.Error())
	}
	return nil
}

// Renders reports whether every public read of a game works on sg: its
// view and its record in each format. A game another stack sent must pass
// before it is written: a corrupt one would fail every read of it here.
func Renders(sg *games.Item) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	_ = games.ViewOf(sg, 0, 0)
	for _, f := range game.RecordFormats {
		if _, err := sg.Game.Record(0, f, game.RecordInfo{Red: "Red", Black: "Black"}); err != nil {
			return fmt.Errorf("its %s record: %v", f, err)
		}
	}
	return nil
}
