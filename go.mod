module github.com/xqtour/xqtour

go 1.26
