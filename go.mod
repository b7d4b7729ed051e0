module github.com/sputnikmq/sputnik

go 1.26

require (
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/sirupsen/logrus v1.10.2
	github.com/stretchr/testify v1.12.1
	github.com/valyala/bytebufferpool v1.0.0
	go.uber.org/goleak v1.3.0
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sync v0.11.0 // indirect
	golang.org/x/sys v0.13.0 // indirect
)
