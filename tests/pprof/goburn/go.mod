module pmuscope.test/goburn

go 1.19
