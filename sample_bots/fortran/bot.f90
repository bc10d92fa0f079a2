! bot.f90 - a Last Card starter bot in Fortran 2008, no libraries.
!
! Build: gfortran -O2 -o bot bot.f90      Run: ./bot      Check: lastcard check ./bot
!
! The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
!   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
! exits on quit or at the end of input, and treats every other message as information.
! Fortran has no JSON reader, so a short scanner is below: it finds a member of an object and the
! extent of a value in the line's text, and each legal answer is written back as the text it came as.
module json_scan
  implicit none
contains
  ! The position of the first character at or after i that is not white space.
  integer function skip_ws(s, i)
    character(len=*), intent(in) :: s
    integer, intent(in) :: i
    skip_ws = i
    do while (skip_ws <= len(s))
      if (index(' '//achar(9)//achar(10)//achar(13), s(skip_ws:skip_ws)) == 0) exit
      skip_ws = skip_ws + 1
    end do
  end function

  ! The position just past the value that starts at i (a string, object, array or scalar).
  integer function skip_value(s, i)
    character(len=*), intent(in) :: s
    integer, intent(in) :: i
    integer :: depth
    logical :: in_str
    skip_value = i
    if (index('"{[', s(i:i)) == 0) then
      do while (skip_value <= len(s))
        if (index(',}] ', s(skip_value:skip_value)) /= 0) exit
        skip_value = skip_value + 1
      end do
      return
    end if
    depth = 0
    in_str = .false.
    do while (skip_value <= len(s))
      if (in_str) then
        if (s(skip_value:skip_value) == '\') then
          skip_value = skip_value + 1           ! the escaped character
        else if (s(skip_value:skip_value) == '"') then
          in_str = .false.
          if (depth == 0) then
            skip_value = skip_value + 1
            return
          end if
        end if
      else if (s(skip_value:skip_value) == '"') then
        in_str = .true.
      else if (index('{[', s(skip_value:skip_value)) /= 0) then
        depth = depth + 1
      else if (index('}]', s(skip_value:skip_value)) /= 0) then
        depth = depth - 1
        if (depth == 0) then
          skip_value = skip_value + 1
          return
        end if
      end if
      skip_value = skip_value + 1
    end do
  end function

  ! In the object at position obj, the position of the value of member key (0 if there is none).
  integer function find_key(s, obj, key)
    character(len=*), intent(in) :: s, key
    integer, intent(in) :: obj
    integer :: p, k, v
    find_key = 0
    p = skip_ws(s, obj)
    if (p > len(s)) return
    if (s(p:p) /= '{') return
    p = skip_ws(s, p + 1)
    do while (p <= len(s))
      if (s(p:p) /= '"') return
      k = p
      p = skip_value(s, p)                     ! just past the key's closing quote
      v = skip_ws(s, skip_ws(s, p) + 1)        ! past the ':'
      if (s(k:p - 1) == '"'//key//'"') then
        find_key = v
        return
      end if
      p = skip_ws(s, skip_value(s, v))
      if (p > len(s)) return
      if (s(p:p) /= ',') return
      p = skip_ws(s, p + 1)
    end do
  end function

  ! The string value at position v, without its quotes ('' if it is not a string).
  function string_at(s, v) result(text)
    character(len=*), intent(in) :: s
    integer, intent(in) :: v
    character(len=:), allocatable :: text
    text = ''
    if (v > 0) then
      if (s(v:v) == '"') text = s(v + 1:skip_value(s, v) - 2)
    end if
  end function

  ! The text of element n (1-based) of the array at position v ('' if it has fewer elements).
  function element(s, v, n) result(text)
    character(len=*), intent(in) :: s
    integer, intent(in) :: v, n
    character(len=:), allocatable :: text
    integer :: p, k, e
    text = ''
    if (v == 0) return
    p = skip_ws(s, v + 1)
    do k = 1, n
      if (p > len(s)) return
      if (s(p:p) == ']') return
      e = skip_value(s, p)
      if (k == n) text = s(p:e - 1)
      p = skip_ws(s, e)
      if (p > len(s)) return
      if (s(p:p) == ',') p = skip_ws(s, p + 1)
    end do
  end function
end module json_scan

program bot
  use, intrinsic :: iso_fortran_env, only: error_unit, output_unit, input_unit
  use json_scan
  implicit none
  character(len=:), allocatable :: line, kind

  do
    if (.not. read_line(line)) exit
    kind = string_at(line, find_key(line, 1, 'type'))
    if (kind == 'quit') then
      exit
    else if (kind == 'hello') then
      call send('{"type":"ready","name":"fortran-kit"}')
    else if (kind == 'turn') then
      call send(element(line, find_key(line, 1, 'legal'), choose(line)))
    else if (kind == 'error') then
      write (error_unit, '(2a)') 'fortran-kit: the referee reports a fault: ', &
        string_at(line, find_key(line, 1, 'message'))
    end if ! start, event, round_end, game_end: information, never answered
  end do

contains
  ! The strategy: your code goes here. Return the number (1-based) of the legal answer to play.
  ! Plays come first in the list, draw or pass last, so the first plays whenever a card can be
  ! played. element(turn, find_key(turn, 1, 'legal'), k) is answer k's text, string_at(turn,
  ! find_key(turn, 1, 'top')) the top card; the fields are described in protocol/PROTOCOL.md.
  integer function choose(turn)
    character(len=*), intent(in) :: turn
    choose = 1
  end function

  ! Write one line and flush it: the referee is waiting for it.
  subroutine send(text)
    character(len=*), intent(in) :: text
    write (output_unit, '(a)') text
    flush (output_unit)
  end subroutine

  ! Read one line of any length into text; .false. at the end of input.
  logical function read_line(text)
    character(len=:), allocatable, intent(out) :: text
    character(len=4096) :: chunk
    integer :: got, status
    text = ''
    read_line = .false.
    do
      read (input_unit, '(a)', advance='no', size=got, iostat=status) chunk
      text = text//chunk(:got)
      if (status == 0) cycle                  ! the chunk was full: read on
      if (is_iostat_end(status)) return
      read_line = .true.                       ! the end of the line
      exit
    end do
    if (len(text) > 0) then
      if (text(len(text):len(text)) == achar(13)) text = text(:len(text) - 1)
    end if
  end function
end program bot
