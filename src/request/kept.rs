//! proto
use bytes::BytesMut;
use std::cell::RefCell;

thread_local! {
    static KEPT: RefCell<BytesMut> = RefCell::new(BytesMut::new());
}

pub(crate) fn take(len: usize) -> BytesMut {
    let mut buffer = KEPT.with(|k| std::mem::take(&mut *k.borrow_mut()));
    buffer.reserve(len);
    buffer
}

pub(crate) fn give_back(buffer: BytesMut) {
    if buffer.capacity() > 4 << 20 { return; }
    KEPT.with(|k| *k.borrow_mut() = buffer);
}
