//! Shared by the fuzz targets: a reader that hands out its bytes in chunks of a given size, to
//! check that the streaming parsers give the same results however the input is split.

use std::io::{self, BufRead, Read};

/// Hands out `data` at most `chunk` bytes per `fill_buf`.
pub struct Chunked<'a> {
    pub data: &'a [u8],
    pub chunk: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Chunked<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.data[..self.chunk.max(1).min(self.data.len())])
    }

    fn consume(&mut self, n: usize) {
        self.data = &self.data[n..];
    }
}
