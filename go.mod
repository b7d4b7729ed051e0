module github.com/sputnikmq/sputnik

go 1.26

require (
	github.com/stretchr/testify v1.12.1
	github.com/valyala/bytebufferpool v1.0.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
