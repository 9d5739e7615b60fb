module example.com/go112

go 1.12
