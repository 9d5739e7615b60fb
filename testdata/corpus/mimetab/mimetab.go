// Package mimetab maps file extensions to media types.
package mimetab

import (
	"errors"
	"mime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Table maps file extensions to media types: a built-in set plus the
// types added with Add. Lookups go through an index that is built on
// demand and dropped when a type is added. A Table is safe for concurrent
// use by multiple goroutines.
type Table struct {
	mu    sync.Mutex
	added map[string]string
	list  []Entry // every known extension, sorted

	built atomic.Bool
	index atomic.Pointer[index]
}

type index struct {
	types map[string]string   // extension -> media type
	exts  map[string][]string // media type -> extensions, sorted
}

var builtin = [][2]string{
	{".aac", "audio/aac"}, {".avi", "video/x-msvideo"}, {".avif", "image/avif"},
	{".bin", "application/octet-stream"}, {".bmp", "image/bmp"}, {".bz2", "application/x-bzip2"},
	{".css", "text/css; charset=utf-8"}, {".csv", "text/csv; charset=utf-8"},
	{".doc", "application/msword"}, {".eot", "application/vnd.ms-fontobject"},
	{".epub", "application/epub+zip"}, {".flac", "audio/flac"}, {".gif", "image/gif"},
	{".gz", "application/gzip"}, {".htm", "text/html; charset=utf-8"}, {".html", "text/html; charset=utf-8"},
	{".ico", "image/vnd.microsoft.icon"}, {".ics", "text/calendar"}, {".jar", "application/java-archive"},
	{".jpeg", "image/jpeg"}, {".jpg", "image/jpeg"}, {".js", "text/javascript; charset=utf-8"},
	{".json", "application/json"}, {".jsonld", "application/ld+json"}, {".md", "text/markdown; charset=utf-8"},
	{".mid", "audio/midi"}, {".midi", "audio/midi"}, {".mjs", "text/javascript; charset=utf-8"},
	{".mp3", "audio/mpeg"}, {".mp4", "video/mp4"}, {".mpeg", "video/mpeg"},
	{".odp", "application/vnd.oasis.opendocument.presentation"},
	{".ods", "application/vnd.oasis.opendocument.spreadsheet"},
	{".odt", "application/vnd.oasis.opendocument.text"}, {".oga", "audio/ogg"}, {".ogv", "video/ogg"},
	{".ogx", "application/ogg"}, {".opus", "audio/opus"}, {".otf", "font/otf"},
	{".pdf", "application/pdf"}, {".png", "image/png"}, {".ppt", "application/vnd.ms-powerpoint"},
	{".rar", "application/vnd.rar"}, {".rtf", "application/rtf"}, {".sh", "application/x-sh"},
	{".svg", "image/svg+xml"}, {".tar", "application/x-tar"}, {".tif", "image/tiff"},
	{".tiff", "image/tiff"}, {".ts", "video/mp2t"}, {".ttf", "font/ttf"},
	{".txt", "text/plain; charset=utf-8"}, {".wasm", "application/wasm"}, {".wav", "audio/wav"},
	{".weba", "audio/webm"}, {".webm", "video/webm"}, {".webp", "image/webp"},
	{".woff", "font/woff"}, {".woff2", "font/woff2"}, {".xhtml", "application/xhtml+xml"},
	{".xls", "application/vnd.ms-excel"}, {".xml", "application/xml"}, {".yaml", "application/yaml"},
	{".yml", "application/yaml"}, {".zip", "application/zip"}, {".7z", "application/x-7z-compressed"},
	{".apng", "image/apng"}, {".arc", "application/x-freearc"}, {".azw", "application/vnd.amazon.ebook"},
	{".bz", "application/x-bzip"}, {".cda", "application/x-cdf"}, {".csh", "application/x-csh"},
	{".docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
	{".pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"},
	{".xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
	{".php", "application/x-httpd-php"}, {".vsd", "application/vnd.visio"}, {".xul", "application/vnd.mozilla.xul+xml"},
	{".3gp", "video/3gpp"}, {".3g2", "video/3gpp2"}, {".mpkg", "application/vnd.apple.installer+xml"},
	{".abw", "application/x-abiword"}, {".heic", "image/heic"}, {".heif", "image/heif"},
	{".jxl", "image/jxl"}, {".m4a", "audio/mp4"}, {".m4v", "video/mp4"}, {".mkv", "video/x-matroska"},
	{".mov", "video/quicktime"}, {".wmv", "video/x-ms-wmv"}, {".wma", "audio/x-ms-wma"},
	{".aif", "audio/aiff"}, {".aiff", "audio/aiff"}, {".au", "audio/basic"}, {".snd", "audio/basic"},
	{".toml", "application/toml"}, {".ini", "text/plain; charset=utf-8"}, {".log", "text/plain; charset=utf-8"},
	{".tsv", "text/tab-separated-values; charset=utf-8"}, {".vtt", "text/vtt; charset=utf-8"},
	{".srt", "application/x-subrip"}, {".sql", "application/sql"}, {".wgsl", "text/wgsl"},
	{".glb", "model/gltf-binary"}, {".gltf", "model/gltf+json"}, {".obj", "model/obj"}, {".stl", "model/stl"},
	{".dmg", "application/x-apple-diskimage"}, {".iso", "application/x-iso9660-image"},
	{".deb", "application/vnd.debian.binary-package"}, {".rpm", "application/x-rpm"},
	{".apk", "application/vnd.android.package-archive"}, {".exe", "application/vnd.microsoft.portable-executable"},
	{".msi", "application/x-msi"}, {".xz", "application/x-xz"}, {".zst", "application/zstd"},
	{".lz", "application/x-lzip"}, {".cab", "application/vnd.ms-cab-compressed"},
	{".ps", "application/postscript"}, {".eps", "application/postscript"}, {".ai", "application/postscript"},
	{".psd", "image/vnd.adobe.photoshop"}, {".dwg", "image/vnd.dwg"}, {".dxf", "image/vnd.dxf"},
	{".jp2", "image/jp2"}, {".pbm", "image/x-portable-bitmap"}, {".pgm", "image/x-portable-graymap"},
	{".ppm", "image/x-portable-pixmap"}, {".xbm", "image/x-xbitmap"}, {".tga", "image/x-tga"},
	{".rss", "application/rss+xml"}, {".atom", "application/atom+xml"}, {".geojson", "application/geo+json"},
	{".pem", "application/x-pem-file"}, {".crt", "application/x-x509-ca-cert"}, {".p12", "application/x-pkcs12"},
	{".mobi", "application/x-mobipocket-ebook"}, {".djvu", "image/vnd.djvu"}, {".swf", "application/x-shockwave-flash"},
	{".torrent", "application/x-bittorrent"}, {".vcf", "text/vcard"}, {".webmanifest", "application/manifest+json"},
}

// New returns a table holding the built-in types.
func New() *Table {
	t := &Table{added: make(map[string]string)}
	t.list = t.entries()
	t.build()
	return t
}

// ErrExtension is returned by Add for an extension that does not start
// with a dot.
var ErrExtension = errors.New("mimetab: extension must start with a dot")

// Add maps ext (".ext", any case) to the media type typ, replacing the
// built-in type if there is one.
func (t *Table) Add(ext, typ string) error {
	if len(ext) < 2 || ext[0] != '.' {
		return ErrExtension
	}
	if _, _, err := mime.ParseMediaType(typ); err != nil {
		return err
	}
	ext = strings.ToLower(ext)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.added[ext] = typ
	t.list = t.entries()
	t.index.Store(nil)
	t.built.Store(false)
	return nil
}

// TypeByExtension returns the media type of ext (".ext", any case), or ""
// when the extension is unknown.
func (t *Table) TypeByExtension(ext string) string {
	ext = strings.ToLower(ext)
	if !t.built.Load() {
		t.build()
	}
	ix := t.index.Load()
	return ix.types[ext]
}

// ExtensionsByType returns the sorted extensions mapped to the media
// type typ (parameters such as charset ignored).
func (t *Table) ExtensionsByType(typ string) []string {
	base, _, err := mime.ParseMediaType(typ)
	if err != nil {
		return nil
	}
	if !t.built.Load() {
		t.build()
	}
	ix := t.index.Load()
	return append([]string(nil), ix.exts[base]...)
}

// An Entry is an extension and its media type without parameters.
type Entry struct {
	Ext, Type string
}

// Entries returns every known extension with its media type, sorted by
// extension.
func (t *Table) Entries() []Entry {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Entry(nil), t.list...)
}

// build makes the index from the built-in and added types, unless
// another call did so first.
func (t *Table) build() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.built.Load() {
		return
	}
	ix := &index{types: make(map[string]string), exts: make(map[string][]string)}
	for _, e := range builtin {
		ix.types[e[0]] = e[1]
	}
	for ext, typ := range t.added {
		ix.types[ext] = typ
	}
	for _, e := range t.list {
		ix.exts[e.Type] = append(ix.exts[e.Type], e.Ext)
	}
	t.index.Store(ix)
	t.built.Store(true)
}

// entries lists the built-in and added extensions with their media types
// without parameters, sorted by extension, an added type replacing the
// built-in one. t.mu is held, or t is not shared yet.
func (t *Table) entries() []Entry {
	list := make([]Entry, 0, len(builtin)+len(t.added))
	for _, e := range builtin {
		if _, ok := t.added[e[0]]; !ok {
			base, _, _ := mime.ParseMediaType(e[1])
			list = append(list, Entry{e[0], base})
		}
	}
	for ext, typ := range t.added {
		base, _, _ := mime.ParseMediaType(typ)
		list = append(list, Entry{ext, base})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Ext < list[j].Ext })
	return list
}
